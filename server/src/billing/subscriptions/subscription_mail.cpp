#include "billing/subscriptions/subscription_mail.h"

#include "catalog/money.h"
#include "common/nz_time.h"

#include <chrono>

namespace storefront::billing {

namespace {

std::string money(std::int64_t amount, const std::string& currency) {
    return catalog::formatMoney(amount, currency) + " " + currency;
}

// The message to `to` (none when the address is unusable); its caller names the kind.
mail::MailMessage message(const std::string& to, std::string subject, std::string text) {
    mail::MailMessage m;
    if (!mail::isValidEmailAddress(to)) return m;
    m.to = to;
    m.subject = std::move(subject);
    m.text = std::move(text);
    return m;
}

} // namespace

std::string nzDay(std::int64_t epochSeconds) { return nz::longDate(nz::Instant(std::chrono::seconds(epochSeconds))); }

mail::MailMessage paymentFailedMail(const std::string& to, const std::string& product, std::int64_t amount,
                                    const std::string& currency, std::int64_t accessEnds, const std::string& publicUrl) {
    auto m = message(to, "Payment failed for your " + product + " subscription",
               "We could not take the renewal payment of " + money(amount, currency) + " for your " + product +
                   " subscription. We will try the card again.\n\nYour access continues until " + nzDay(accessEnds) +
                   ". To keep it, update your payment method before then:\n" + publicUrl +
                   "/dashboard?billing=portal\n\n(You will be asked to sign in first.)\n");
    m.kind = "payment_failed";
    return m;
}

mail::MailMessage paymentReminderMail(const std::string& to, const std::string& product, std::int64_t accessEnds,
                                      const std::string& publicUrl) {
    auto m = message(to, "Your " + product + " access ends on " + nzDay(accessEnds),
               "The renewal payment for your " + product + " subscription has still not gone through. Your access ends on " +
                   nzDay(accessEnds) + " unless you update your payment method:\n" + publicUrl +
                   "/dashboard?billing=portal\n");
    m.kind = "payment_reminder";
    return m;
}

mail::MailMessage trialEndingMail(const std::string& to, const std::string& product, std::int64_t trialEnd,
                                  std::optional<std::int64_t> amount, const std::string& currency, const std::string& publicUrl) {
    std::string text = "Your free trial of " + product + " ends on " + nzDay(trialEnd) + ".";
    if (amount) text += " Your first payment of " + money(*amount, currency) + " is taken then.";
    text += "\n\nTo cancel before then, or to change your plan, open your dashboard:\n" + publicUrl + "/dashboard\n";
    auto m = message(to, "Your " + product + " trial ends on " + nzDay(trialEnd), text);
    m.kind = "trial_ending";
    return m;
}

mail::MailMessage cancellationMail(const std::string& to, const std::string& product, bool atPeriodEnd,
                                   std::optional<std::int64_t> accessEnds, const std::string& publicUrl) {
    if (atPeriodEnd && accessEnds) {
        auto m = message(to, "Your " + product + " subscription ends on " + nzDay(*accessEnds),
                       "Your " + product + " subscription will not renew. You keep access until " + nzDay(*accessEnds) +
                           ".\n\nChanged your mind? Resume it from your dashboard before then:\n" + publicUrl + "/dashboard\n");
        m.kind = "subscription_cancelled";
        return m;
    }
    auto m = message(to, "Your " + product + " subscription is cancelled",
               "Your " + product + " subscription is cancelled and its access has ended. No further payments will be "
               "taken.\n\nYour past subscriptions: " + publicUrl + "/dashboard\n");
    m.kind = "subscription_cancelled";
    return m;
}

mail::MailMessage resumedMail(const std::string& to, const std::string& product, std::optional<std::int64_t> renewsAt,
                              const std::string& publicUrl) {
    auto m = message(to, "Your " + product + " subscription continues",
               "Your " + product + " subscription is no longer set to end" +
                   (renewsAt ? ": it renews on " + nzDay(*renewsAt) : std::string()) + ".\n\nYour subscriptions: " +
                   publicUrl + "/dashboard\n");
    m.kind = "subscription_resumed";
    return m;
}

mail::MailMessage planChangedMail(const std::string& to, const std::string& product, const std::string& plan,
                                  std::int64_t charged, std::int64_t creditKept, const std::string& currency,
                                  std::int64_t nextRenewalAt, std::int64_t nextRenewalAmount, const std::string& publicUrl) {
    std::string text = "Your " + product + " subscription is now on the " + plan + " plan.\n\n";
    text += charged > 0 ? "Charged now (prorated, GST included): " + money(charged, currency) + "\n"
                        : "Nothing was charged now.\n";
    if (creditKept > 0) text += "Credit kept for your next renewal: " + money(creditKept, currency) + "\n";
    text += "Next renewal: " + money(nextRenewalAmount, currency) + " on " + nzDay(nextRenewalAt) + "\n";
    text += "\nYour subscriptions and tax invoices: " + publicUrl + "/dashboard\n";
    auto m = message(to, "Your " + product + " plan has changed", text);
    m.kind = "plan_changed";
    return m;
}

} // namespace storefront::billing

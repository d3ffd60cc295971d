#pragma once
// The mails of the subscription lifecycle (docs/billing.md, "Subscription lifecycle"): what each
// says, in one place. Who sends them: the subscription events (payment_failed), the reminder job
// (payment_reminder, trial_ending) and the subscription actions (the rest). Dates are New Zealand
// calendar days; amounts are minor units with their currency.
#include "mail/mail_message.h"

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::billing {

// A renewal was declined: the amount, the day access ends, and a link that opens the billing
// portal after sign-in.
mail::MailMessage paymentFailedMail(const std::string& to, const std::string& product, std::int64_t amount,
                                    const std::string& currency, std::int64_t accessEnds, const std::string& publicUrl);
// Three days before the grace period ends.
mail::MailMessage paymentReminderMail(const std::string& to, const std::string& product, std::int64_t accessEnds,
                                      const std::string& publicUrl);
// Three days before a trial's first charge.
mail::MailMessage trialEndingMail(const std::string& to, const std::string& product, std::int64_t trialEnd,
                                  std::optional<std::int64_t> amount, const std::string& currency, const std::string& publicUrl);
// A cancellation: now (access has ended) or at the period end (access lasts until `accessEnds`).
mail::MailMessage cancellationMail(const std::string& to, const std::string& product, bool atPeriodEnd,
                                   std::optional<std::int64_t> accessEnds, const std::string& publicUrl);
// A scheduled cancellation undone: it renews on `renewsAt`.
mail::MailMessage resumedMail(const std::string& to, const std::string& product, std::optional<std::int64_t> renewsAt,
                              const std::string& publicUrl);
// A plan change: what was charged now and what the next renewal is.
mail::MailMessage planChangedMail(const std::string& to, const std::string& product, const std::string& plan,
                                  std::int64_t charged, std::int64_t creditKept, const std::string& currency,
                                  std::int64_t nextRenewalAt, std::int64_t nextRenewalAmount, const std::string& publicUrl);

// "5 April 2026" for unix seconds.
std::string nzDay(std::int64_t epochSeconds);

} // namespace storefront::billing

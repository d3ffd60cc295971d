#include "billing/subscriptions/subscription_events.h"

#include "billing/orders/rules.h"
#include "billing/provider/stripe_json.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/subscription_mail.h"
#include "catalog/money.h"
#include "common/text.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

#include <algorithm>

namespace storefront::billing {

namespace {

using stripe_json::idOf;
using stripe_json::integer;
using stripe_json::member;
using stripe_json::str;
namespace st = subscription_status;

std::optional<std::string> uuidOf(const std::optional<std::string>& value) {
    if (value && common::isUuid(*value)) return value;
    return std::nullopt;
}

std::optional<std::string> whenOf(const std::optional<std::int64_t>& epoch) {
    if (!epoch) return std::nullopt;
    return db::timestampFromEpoch(*epoch);
}

std::optional<std::string> laterOf(const std::optional<std::string>& a, const std::optional<std::string>& b) {
    if (!a) return b;
    if (!b) return a;
    return std::max(*a, *b); // same ISO-8601 UTC form: text order is time order
}

} // namespace

void SubscriptionEvents::insert(db::Tx& tx, NewSubscription n) {
    if (holdsProduct(n.status) && subscriptions_.otherHolding(tx, n.userId, n.productId, "")) {
        Poco::Logger::get("billing").warning("user %s already holds product %s; %s %s is kept as pending", n.userId, n.productId,
                                             n.provider, n.providerId);
        n.status = st::kPending;
    }
    subscriptions_.insert(tx, n);
}

void SubscriptionEvents::link(db::Tx& tx, const Link& l) {
    if (subscriptions_.findByProvider(tx, l.provider, l.providerId)) return;
    NewSubscription n;
    n.userId = l.userId;
    n.productId = l.productId;
    n.status = l.paid ? st::kActive : st::kPending;
    n.provider = l.provider;
    n.providerId = l.providerId;
    n.planId = l.planId;
    n.customerId = l.customerId;
    insert(tx, n);
}

// A subscription we have not stored yet: its owner from the metadata (or the provider's customer).
bool SubscriptionEvents::insertFromProvider(db::Tx& tx, const ProviderEvent& e, const std::string& providerId, NewSubscription n) {
    const auto& metadata = member(e.object, "metadata");
    auto customer = idOf(e.object, "customer");
    std::optional<std::string> userId = uuidOf(str(metadata, "user_id"));
    if (userId && !subscriptions_.userExists(tx, *userId)) userId.reset();
    if (!userId && customer) userId = customers_.userOf(tx, e.provider, *customer);
    std::optional<std::string> productId = uuidOf(str(metadata, "product_id"));
    if (productId && !subscriptions_.productExists(tx, *productId)) productId.reset();
    std::optional<std::string> planId = uuidOf(str(metadata, "pricing_plan_id"));
    if (planId && !subscriptions_.planExists(tx, *planId)) planId.reset();
    if (!userId || !productId) {
        Poco::Logger::get("billing").warning("%s subscription %s names no user or product of ours; ignored", e.provider, providerId);
        return false;
    }
    n.userId = *userId;
    n.productId = *productId;
    n.provider = e.provider;
    n.providerId = providerId;
    n.planId = planId;
    n.customerId = customer;
    n.eventAt = e.at;
    insert(tx, n);
    return true;
}

bool SubscriptionEvents::applySubscription(db::Tx& tx, const ProviderEvent& e, bool deleted) {
    auto providerId = str(e.object, "id");
    if (!providerId) return false;
    std::string status = deleted ? st::kCancelled : stripe_json::statusFromStripe(str(e.object, "status").value_or(""));
    const auto end = whenOf(stripe_json::periodEnd(e.object));
    const auto start = whenOf(stripe_json::periodStart(e.object));
    const auto trialEnd = whenOf(integer(e.object, "trial_end"));
    auto capeIt = e.object.find("cancel_at_period_end");
    const bool cape = capeIt != e.object.end() && capeIt->is_boolean() && capeIt->get<bool>();

    auto row = subscriptions_.findByProvider(tx, e.provider, *providerId);
    if (!row) {
        NewSubscription n;
        n.status = status;
        n.periodEnd = end;
        n.periodStart = start;
        n.trialEnd = trialEnd;
        n.cancelAtPeriodEnd = cape;
        if (status == st::kPastDue) n.pastDueSince = e.at;
        return insertFromProvider(tx, e, *providerId, n);
    }
    if (hasEnded(row->status)) return false; // ended subscriptions stay ended
    SubscriptionChange c;
    if (!deleted && row->eventAt && e.at < *row->eventAt) {
        // Older than what we have: only a later period end is news.
        if (laterOf(row->periodEnd, end) == row->periodEnd) return true;
        c.periodEnd = end;
        c.periodStart = start;
        subscriptions_.apply(tx, row->id, c);
        return true;
    }
    if (holdsProduct(status) && !holdsProduct(row->status) && subscriptions_.otherHolding(tx, row->userId, row->productId, row->id)) {
        Poco::Logger::get("billing").warning("subscription %s cannot become %s: the user holds the product already", row->id, status);
        status = row->status;
    }
    c.status = status;
    c.eventAt = laterOf(row->eventAt, e.at);
    c.cancelAtPeriodEnd = cape;
    if (auto later = laterOf(row->periodEnd, end); later != row->periodEnd) {
        c.periodEnd = later;
        if (start) c.periodStart = start;
    } else if (start && !row->periodStart) {
        c.periodStart = start;
    }
    if (trialEnd) c.trialEnd = trialEnd;
    if (status == st::kPastDue && !row->pastDueSince) c.pastDueSince = std::optional<std::string>(e.at);
    if (status != st::kPastDue && row->pastDueSince) c.pastDueSince = std::optional<std::string>();
    if (hasEnded(status)) c.endedAt = std::optional<std::string>(e.at);
    subscriptions_.apply(tx, row->id, c);
    return true;
}

bool SubscriptionEvents::applyInvoice(db::Tx& tx, const ProviderEvent& e) {
    const bool isPaid = e.type == "invoice.paid";
    auto providerId = stripe_json::invoiceSubscription(e.object);
    std::optional<SubscriptionRow> row;
    if (providerId) row = subscriptions_.findByProvider(tx, e.provider, *providerId);
    bool changed = false;
    if (isPaid) changed = recordPayment(tx, e, row);
    if (row && !hasEnded(row->status)) changed = (isPaid ? paid(tx, e, *row) : failed(tx, e, *row)) || changed;
    // The money was taken whether or not we know the subscription: the tax invoice is due.
    if (isPaid) changed = issueInvoice(tx, e, row) || changed;
    return changed;
}

bool SubscriptionEvents::applyInvoicePayment(db::Tx& tx, const ProviderEvent& e) {
    auto invoice = idOf(e.object, "invoice");
    auto payment = idOf(member(e.object, "payment"), "payment_intent");
    if (!invoice || !payment) return false;
    payments_.setPaymentId(tx, e.provider, *invoice, *payment);
    return true;
}

// invoice.paid: the period moves on and the subscription is active again (a trial's own zero
// invoice leaves it trialing); a past-due one recovers at once. The customer's balance after it is
// the credit kept.
bool SubscriptionEvents::paid(db::Tx& tx, const ProviderEvent& e, const SubscriptionRow& row) {
    SubscriptionChange c;
    const auto end = whenOf(stripe_json::invoicePeriodEnd(e.object));
    if (auto later = laterOf(row.periodEnd, end); later != row.periodEnd) c.periodEnd = later;
    if (auto balance = integer(e.object, "ending_balance")) c.creditBalance = std::max<std::int64_t>(-*balance, 0);
    if (row.eventAt && e.at < *row.eventAt) {
        subscriptions_.apply(tx, row.id, c);
        return true;
    }
    const bool charged = integer(e.object, "amount_paid").value_or(0) > 0;
    c.status = row.status == st::kTrialing && !charged ? st::kTrialing : st::kActive;
    if (!holdsProduct(row.status) && subscriptions_.otherHolding(tx, row.userId, row.productId, row.id)) {
        Poco::Logger::get("billing").warning("subscription %s cannot become active: the user holds the product already", row.id);
        c.status = row.status;
    }
    c.eventAt = e.at;
    if (row.pastDueSince) c.pastDueSince = std::optional<std::string>();
    subscriptions_.apply(tx, row.id, c);
    return true;
}

// invoice.payment_failed of a renewal: past due from the first failure, and the customer told once
// per provider invoice. A first invoice that fails leaves the checkout unpaid instead.
bool SubscriptionEvents::failed(db::Tx& tx, const ProviderEvent& e, const SubscriptionRow& row) {
    if (str(e.object, "billing_reason").value_or("") == "subscription_create") return false;
    if (row.eventAt && e.at < *row.eventAt) return false; // a newer event has spoken
    if (!holdsProduct(row.status) && subscriptions_.otherHolding(tx, row.userId, row.productId, row.id)) return false;
    SubscriptionChange c;
    c.status = st::kPastDue;
    c.eventAt = e.at;
    const std::string since = row.pastDueSince.value_or(e.at);
    if (!row.pastDueSince) c.pastDueSince = std::optional<std::string>(since);
    subscriptions_.apply(tx, row.id, c);
    const auto invoice = str(e.object, "id").value_or(e.eventId);
    if (!subscriptions_.noteSent(tx, row.id, "payment_failed", invoice)) return true;
    const auto amount = integer(e.object, "amount_due").value_or(0);
    const std::string currency = Poco::toUpper(str(e.object, "currency").value_or("nzd"));
    const auto accessEnds = graceEnd(db::epochFromTimestamp(since), graceDays_);
    auto m = paymentFailedMail(subscriptions_.ownerEmail(tx, row.userId), subscriptions_.productName(tx, row.productId), amount, currency, accessEnds, publicUrl_);
    if (!m.to.empty()) outbox_.enqueue(tx, m);
    return true;
}

bool SubscriptionEvents::recordPayment(db::Tx& tx, const ProviderEvent& e, const std::optional<SubscriptionRow>& row) {
    auto invoice = str(e.object, "id");
    auto amount = integer(e.object, "amount_paid");
    const std::string currency = Poco::toUpper(str(e.object, "currency").value_or(""));
    if (!invoice || !amount || *amount <= 0 || !catalog::isCurrency(currency)) return false;
    std::optional<std::string> subscriptionId;
    if (row) {
        subscriptionId = row->id;
        SubscriptionPayment paid;
        paid.subscriptionId = row->id;
        paid.provider = e.provider;
        paid.providerInvoiceId = *invoice;
        paid.providerPaymentId = stripe_json::invoicePaymentIntent(e.object);
        paid.amount = *amount;
        paid.currency = currency;
        paid.paidAt = e.at;
        payments_.recordPaid(tx, paid);
    }
    return ledger_.add(tx, {e.provider + ":invoice:" + *invoice, ledger_kind::kSubscriptionPayment, *amount, currency, e.provider,
                            *invoice, std::nullopt, subscriptionId, std::nullopt, e.eventId});
}

// A tax invoice for the money taken, under the provider's invoice id (once), and, for a renewal
// (not the first invoice, which its checkout confirms, nor a plan change, which its own mail
// confirms), a receipt that links to it. Nothing for an invoice of zero (a trial).
bool SubscriptionEvents::issueInvoice(db::Tx& tx, const ProviderEvent& e, const std::optional<SubscriptionRow>& row) {
    auto providerInvoice = str(e.object, "id");
    auto amount = integer(e.object, "amount_paid");
    if (!providerInvoice || !amount || *amount <= 0) return false;
    NewInvoice n;
    n.sourceKey = "invoice:" + e.provider + ":" + *providerInvoice;
    n.currency = Poco::toUpper(str(e.object, "currency").value_or("nzd"));
    n.totalAmount = *amount;
    if (row) {
        n.userId = row->userId;
        n.subscriptionId = row->id;
    } else if (auto customer = idOf(e.object, "customer")) n.userId = customers_.userOf(tx, e.provider, *customer);
    n.buyerEmail = str(e.object, "customer_email");
    n.buyerName = str(e.object, "customer_name");
    invoices_.fillBuyer(tx, n);
    auto lines = member(e.object, "lines").find("data");
    if (lines != member(e.object, "lines").end() && lines->is_array())
        for (const auto& line : *lines)
            if (auto lineAmount = integer(line, "amount"))
                n.lines.push_back({str(line, "description").value_or("Subscription"), integer(line, "quantity").value_or(1), *lineAmount});
    if (n.lines.empty()) n.lines.push_back({"Subscription", 1, *amount});
    bool issued = false;
    const auto number = invoices_.issue(tx, n, &issued);
    const auto reason = str(e.object, "billing_reason").value_or("");
    if (!issued || reason == "subscription_create" || reason == "subscription_update" || !n.buyerEmail ||
        !mail::isValidEmailAddress(*n.buyerEmail))
        return true;
    auto summary = invoices_.summary(tx, number);
    if (!summary) return true;
    mail::MailMessage m;
    m.kind = "renewal_receipt";
    m.to = *n.buyerEmail;
    m.subject = "Receipt for your subscription renewal (" + number + ")";
    m.text = "Your subscription has renewed.\n\nAmount paid: " + catalog::formatMoney(n.totalAmount, n.currency) + " " + n.currency +
             " (GST included)\n" + invoiceMailText(*summary, publicUrl_) + "\nManage your subscriptions: " + publicUrl_ +
             "/dashboard\n";
    outbox_.enqueue(tx, m);
    return true;
}

} // namespace storefront::billing

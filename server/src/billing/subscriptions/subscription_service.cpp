#include "billing/subscriptions/subscription_service.h"

#include "billing/orders/rules.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/subscription_mail.h"
#include "catalog/money.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

namespace {

using http::ApiError;
using http::ErrorKind;
namespace st = subscription_status;

constexpr int kReminderDays = 3; // payment_reminder and trial_ending go this many days ahead

std::optional<std::int64_t> epochOf(const std::optional<std::string>& t) {
    if (!t) return std::nullopt;
    return db::epochFromTimestamp(*t);
}

void requireAllowed(const SubscriptionRow& row, SubscriptionAction action, std::int64_t now) {
    const auto facts = factsOf(row.status, row.cancelAtPeriodEnd, row.periodEnd, now);
    if (isAllowed(facts, action)) return;
    std::string message;
    if (hasEnded(row.status)) message = "This subscription has ended.";
    else if (action == SubscriptionAction::Resume) message = "This subscription is not set to end.";
    else if (action == SubscriptionAction::CancelAtPeriodEnd && row.cancelAtPeriodEnd)
        message = "This subscription already ends at its period end.";
    else if (action == SubscriptionAction::ChangePlan && row.cancelAtPeriodEnd)
        message = "Resume this subscription before changing its plan.";
    else message = "A " + row.status + " subscription cannot do that.";
    ApiError error(ErrorKind::Conflict, "invalid_transition", message);
    error.extra = {{"from", row.status}, {"to", actionName(action)}, {"allowed", allowedActionNames(facts)}};
    throw error;
}

nlohmann::json stateOf(const SubscriptionRow& row) {
    return {{"status", row.status},
            {"cancel_at_period_end", row.cancelAtPeriodEnd},
            {"pricing_plan_id", row.planId ? nlohmann::json(*row.planId) : nlohmann::json(nullptr)},
            {"current_period_end", row.periodEnd ? nlohmann::json(*row.periodEnd) : nlohmann::json(nullptr)}};
}

ApiError providerFailure(const std::string& what, const ProviderError& e) {
    Poco::Logger::get("billing").warning("subscription %s: %s", what, std::string(e.what()));
    return ApiError(ErrorKind::BadGateway, "payment_provider_error",
                    "The payment provider did not confirm the change. Nothing changed; please try again.");
}

} // namespace

SubscriptionRow SubscriptionService::owned(const std::optional<std::string>& ownerId, const std::string& id) {
    auto s = db_.session();
    auto row = subscriptions_.find(s, id);
    if (!row || (ownerId && row->userId != *ownerId))
        throw ApiError::notFound("subscription_not_found", "No such subscription.");
    return *row;
}

SubscriptionService::Claimed SubscriptionService::claimFor(db::Tx& tx, const std::optional<std::string>& ownerId,
                                                           const std::string& id, const char* action,
                                                           const std::optional<std::string>& key, const nlohmann::json& request) {
    auto row = subscriptions_.lock(tx, id);
    if (!row || (ownerId && row->userId != *ownerId)) throw ApiError::notFound("subscription_not_found", "No such subscription.");
    auto claim = claims_.claim(tx, {record_type::kSubscription, id, action, key, request.dump()});
    return {*row, claim};
}

void SubscriptionService::writeOutcome(db::Tx& tx, const std::string& id, const SubscriptionRow& from,
                                       const SubscriptionChange& change, const Claim& claim,
                                       const std::function<bool(const SubscriptionRow&)>& shows) {
    auto current = subscriptions_.lock(tx, id);
    if (!current) return;
    if (!subscriptions_.applyIf(tx, id, from, change)) {
        if (!shows(*current))
            Poco::Logger::get("billing").error("subscription %s changed while claim %s was in flight (status %s -> %s, plan %s -> %s): "
                                               "the provider has acted, so its outcome is written over it",
                                               id, claim.id, from.status, current->status, from.planId.value_or("-"),
                                               current->planId.value_or("-"));
        subscriptions_.apply(tx, id, change);
    }
    claims_.finish(tx, claim.id);
}

void SubscriptionService::cancel(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id,
                                 bool atPeriodEnd, const std::optional<std::string>& reason, const std::optional<std::string>& key) {
    const auto action = atPeriodEnd ? SubscriptionAction::CancelAtPeriodEnd : SubscriptionAction::CancelNow;
    Claimed claimed;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, atPeriodEnd ? "cancel_at_period_end" : "cancel_now", key, {{"at_period_end", atPeriodEnd}});
        if (claimed.claim) requireAllowed(claimed.row, action, tx.clock().epochSeconds());
    });
    if (!claimed.claim) return; // the same request again: done already
    const auto& row = claimed.row;
    if (row.providerId) {
        try {
            if (atPeriodEnd) provider_.setCancelAtPeriodEnd(*row.providerId, true);
            else provider_.cancelSubscriptionNow(*row.providerId);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            throw providerFailure("cancel " + id, e);
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        if (atPeriodEnd) c.cancelAtPeriodEnd = true;
        else {
            c.status = st::kCancelled;
            c.endedAt = std::optional<std::string>(tx.clock().nowTimestamp());
        }
        writeOutcome(tx, id, row, c, *claimed.claim, [&](const SubscriptionRow& now) {
            return atPeriodEnd ? now.cancelAtPeriodEnd : hasEnded(now.status);
        });
        auto after = *subscriptions_.find(tx, id);
        nlohmann::json detail = {{"at_period_end", atPeriodEnd}};
        if (reason) detail["reason"] = *reason;
        audit::record(tx, actor, {atPeriodEnd ? "subscription.cancel_scheduled" : "subscription.cancelled", "subscription", id,
                                  stateOf(row), stateOf(after), detail});
        auto m = cancellationMail(subscriptions_.ownerEmail(tx, row.userId), subscriptions_.productName(tx, row.productId), atPeriodEnd,
                                  epochOf(after.periodEnd), publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

void SubscriptionService::resume(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id,
                                 const std::optional<std::string>& key) {
    Claimed claimed;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, "resume", key, nlohmann::json::object());
        if (claimed.claim) requireAllowed(claimed.row, SubscriptionAction::Resume, tx.clock().epochSeconds());
    });
    if (!claimed.claim) return;
    const auto& row = claimed.row;
    if (row.providerId) {
        try {
            provider_.setCancelAtPeriodEnd(*row.providerId, false);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            throw providerFailure("resume " + id, e);
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        c.cancelAtPeriodEnd = false;
        writeOutcome(tx, id, row, c, *claimed.claim, [](const SubscriptionRow& now) { return !now.cancelAtPeriodEnd; });
        auto after = *subscriptions_.find(tx, id);
        audit::record(tx, actor, {"subscription.resumed", "subscription", id, stateOf(row), stateOf(after)});
        auto m = resumedMail(subscriptions_.ownerEmail(tx, row.userId), subscriptions_.productName(tx, row.productId), epochOf(after.periodEnd), publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

SubscriptionService::Preview SubscriptionService::previewOf(Poco::Data::Session& s, const SubscriptionRow& row,
                                                            const std::string& planId) {
    std::optional<PlanInfo> target, current;
    if (common::isUuid(planId)) target = subscriptions_.plan(s, planId);
    if (row.planId) current = subscriptions_.plan(s, *row.planId);
    if (!target || target->productId != row.productId)
        throw ApiError::validation({{"priceId", "Choose another plan of the same product."}}, "Choose another plan of the same product.");
    if (current && target->currency != current->currency)
        throw ApiError::validation({{"priceId", "Choose a plan in " + current->currency + "."}}, "Choose a plan in " + current->currency + ".");
    if (row.planId && *row.planId == planId)
        throw ApiError(ErrorKind::Conflict, "already_on_plan", "You are already on the " + target->name + " plan.");
    if (row.status == st::kPastDue)
        throw ApiError(ErrorKind::Conflict, "past_due", "Update your payment method and pay the overdue renewal before changing plan.");
    const auto now = db_.clock().epochSeconds();
    requireAllowed(row, SubscriptionAction::ChangePlan, now);
    if (!current || !row.periodEnd)
        throw ApiError(ErrorKind::Conflict, "invalid_transition", "This subscription has no plan to change from.");
    ProrationInput in;
    in.from = {current->amount, current->currency, current->unit, static_cast<int>(current->count)};
    in.to = {target->amount, target->currency, target->unit, static_cast<int>(target->count)};
    in.periodEnd = db::epochFromTimestamp(*row.periodEnd);
    in.periodStart = row.periodStart ? db::epochFromTimestamp(*row.periodStart)
                                     : addInterval(in.periodEnd, current->unit, -static_cast<int>(current->count));
    in.now = now;
    in.balance = row.creditBalance;
    in.trialing = row.status == st::kTrialing;
    return {prorate(in), target->currency, *target};
}

SubscriptionService::Preview SubscriptionService::preview(const std::string& ownerId, const std::string& id, const std::string& planId) {
    const auto row = owned(ownerId, id);
    auto s = db_.session();
    return previewOf(s, row, planId);
}

void SubscriptionService::changePlan(const audit::Actor& actor, const std::string& ownerId, const std::string& id,
                                     const std::string& planId, const std::optional<std::string>& key) {
    // Claimed, then priced from the row as of the claim: a second change (a double-click, another
    // tab, another server) is 409 action_in_progress, or priced from what this one wrote.
    Claimed claimed;
    std::optional<Preview> preview;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, "change_plan", key, {{"pricing_plan_id", planId}});
        if (claimed.claim) preview = previewOf(tx.session(), claimed.row, planId);
    });
    if (!claimed.claim) return;
    const auto& row = claimed.row;
    const auto& p = preview->proration;
    if (row.providerId) {
        PlanChange change;
        change.changeId = claimed.claim->id; // the provider's idempotency key: a retried claim cannot charge twice
        change.subscriptionId = *row.providerId;
        change.planId = planId;
        change.line = {preview->plan.productName + " - " + preview->plan.name, preview->plan.amount, preview->plan.currency, 1,
                       preview->plan.unit, static_cast<int>(preview->plan.count)};
        change.amountDueNow = p.amountDueNow;
        change.credit = p.credit;
        change.balanceAfter = p.balanceAfter;
        change.periodStart = p.periodStart;
        change.periodEnd = p.periodEnd;
        bool applied = false;
        try {
            applied = provider_.changePlan(change);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            throw providerFailure("change plan " + id, e);
        }
        if (!applied) {
            claims_.fail(db_, claimed.claim->id);
            throw ApiError(ErrorKind::Conflict, "card_declined",
                           "Your card was declined, so the plan was not changed. Update your payment method and try again.");
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        c.planId = planId;
        c.creditBalance = p.balanceAfter;
        c.periodStart = db::timestampFromEpoch(p.periodStart);
        c.periodEnd = db::timestampFromEpoch(p.periodEnd);
        writeOutcome(tx, id, row, c, *claimed.claim, [&](const SubscriptionRow& now) { return now.planId == planId; });
        auto after = *subscriptions_.find(tx, id);
        audit::record(tx, actor, {"subscription.plan_changed", "subscription", id, stateOf(row), stateOf(after),
                                  {{"amount_due_now", p.amountDueNow}, {"credit", p.credit}, {"balance_after", p.balanceAfter}}});
        auto m = planChangedMail(subscriptions_.ownerEmail(tx, row.userId), preview->plan.productName, preview->plan.name,
                                 p.amountDueNow, p.balanceAfter, preview->currency, p.nextRenewalAt, p.nextRenewalAmount, publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

namespace {

void withActions(AdminSubscription& item, std::int64_t now) {
    item.allowedActions = allowedActionNames(factsOf(item.status, item.cancelAtPeriodEnd, item.periodEnd, now));
}

} // namespace

db::Page<AdminSubscription> SubscriptionService::staffList(const std::optional<std::string>& status,
                                                           const std::optional<std::string>& search, const db::PageQuery& page) {
    auto s = db_.session();
    auto result = subscriptions_.adminList(s, status, search, page);
    for (auto& item : result.items) withActions(item, db_.clock().epochSeconds());
    return result;
}

std::optional<AdminSubscription> SubscriptionService::staffFind(const std::string& id) {
    auto s = db_.session();
    auto item = subscriptions_.adminFind(s, id);
    if (item) withActions(*item, db_.clock().epochSeconds());
    return item;
}

SubscriptionRefund SubscriptionService::refund(const audit::Actor& actor, const std::string& id, std::int64_t amount,
                                               const std::optional<std::string>& reason,
                                               const std::optional<std::string>& clientKey) {
    std::optional<SubscriptionRefund> row;
    std::optional<SubscriptionPayment> paid;
    std::optional<Claim> claim;
    bool repeat = false;
    db_.write([&](db::Tx& tx) {
        // Claimed first, under the subscription's lock: what is left to refund is read with no
        // other refund or action of this subscription in between (a second one is 409 action_in_progress).
        if (!subscriptions_.lock(tx, id)) throw ApiError::notFound("subscription_not_found", "No such subscription.");
        claim = claims_.claim(tx, {record_type::kSubscription, id, "refund", std::nullopt,
                                   nlohmann::json{{"amount", amount}, {"reason", reason.value_or("")}}.dump()});
        paid = payments_.latest(tx, id);
        if (!paid) throw ApiError(ErrorKind::Conflict, "nothing_to_refund", "This subscription has no payment to refund.");
        if (clientKey)
            if (auto existing = payments_.refundByClientKey(tx, paid->id, *clientKey)) {
                row = existing;
                repeat = existing->status != "requested";
                if (repeat) claims_.finish(tx, claim->id);
                return;
            }
        const auto left = paid->amount - payments_.counted(tx, paid->id);
        if (left <= 0) throw ApiError(ErrorKind::Conflict, "already_refunded", "The latest payment has been refunded in full.");
        if (amount > left) {
            const auto most = catalog::formatMoney(left, paid->currency) + " " + paid->currency;
            throw ApiError::validation({{"amount", "At most " + most + " of the latest payment can be refunded."}},
                                       "At most " + most + " of the latest payment can be refunded.");
        }
        if (!paid->providerPaymentId)
            throw ApiError(ErrorKind::Conflict, "payment_not_known",
                           "The payment provider has not yet said which payment paid this invoice. Try again in a minute.");
        NewSubscriptionRefund n;
        n.paymentId = paid->id;
        n.amount = amount;
        n.currency = paid->currency;
        n.reason = reason;
        n.status = "requested";
        n.source = "staff";
        n.clientKey = clientKey;
        n.actorId = actor.userId;
        n.actorEmail = actor.email;
        row = payments_.refund(tx, payments_.insertRefund(tx, n));
    });
    if (repeat) return *row;

    // Outside any transaction: the provider may take seconds. A failure leaves the row requested.
    CreatedRefund created;
    try {
        created = provider_.createRefund({row->id, "", paid->providerPaymentId.value_or(""), row->amount, row->reason.value_or(""), id});
    } catch (const ProviderError& e) {
        Poco::Logger::get("billing").warning("refund %s of subscription %s: %s", row->id, id, std::string(e.what()));
        claims_.fail(db_, claim->id);
        throw ApiError(ErrorKind::BadGateway, "payment_provider_error",
                       "The payment provider did not confirm the refund. Try again: it will not be refunded twice.");
    }
    db_.write([&](db::Tx& tx) {
        subscriptions_.lock(tx, id);
        claims_.finish(tx, claim->id);
        auto current = payments_.refund(tx, row->id);
        auto payment = payments_.find(tx, paid->id);
        if (!current || !payment) return;
        if (current->status == "requested") refundBook_.settle(tx, *current, *payment, created.status, created.id, std::nullopt);
        row = payments_.refund(tx, row->id);
        audit::record(tx, actor, {"subscription.refunded", "subscription", id, nullptr,
                                  {{"refund_id", row->id}, {"amount", row->amount}, {"currency", row->currency}, {"status", row->status}},
                                  {{"reason", row->reason ? nlohmann::json(*row->reason) : nlohmann::json(nullptr)},
                                   {"provider_invoice_id", payment->providerInvoiceId}}});
    });
    return *row;
}

void SubscriptionService::remindDue() {
    const auto now = db_.clock().epochSeconds();
    std::vector<SubscriptionDue> pastDue, trials;
    {
        auto s = db_.session();
        if (graceDays_ > kReminderDays)
            pastDue = subscriptions_.pastDueSince(s, db::timestampFromEpoch(now - std::int64_t(graceDays_ - kReminderDays) * 86400),
                                                  db::timestampFromEpoch(now - std::int64_t(graceDays_) * 86400));
        trials = subscriptions_.trialsEnding(s, db::timestampFromEpoch(now), db::timestampFromEpoch(now + kReminderDays * 86400));
    }
    for (const auto& due : pastDue)
        db_.write([&](db::Tx& tx) {
            auto row = subscriptions_.find(tx, due.id);
            if (!row || row->status != st::kPastDue || !row->pastDueSince) return;
            if (!subscriptions_.noteSent(tx, due.id, "payment_reminder", *row->pastDueSince)) return;
            auto m = paymentReminderMail(due.email.value_or(""), due.productName,
                                         graceEnd(db::epochFromTimestamp(*row->pastDueSince), graceDays_), publicUrl_);
            if (!m.to.empty()) outbox_.enqueue(tx, m);
        });
    for (const auto& due : trials)
        db_.write([&](db::Tx& tx) {
            auto row = subscriptions_.find(tx, due.id);
            if (!row || row->status != st::kTrialing || !row->trialEnd) return;
            if (!subscriptions_.noteSent(tx, due.id, "trial_ending", *row->trialEnd)) return;
            auto m = trialEndingMail(due.email.value_or(""), due.productName, db::epochFromTimestamp(*row->trialEnd), due.planAmount,
                                     due.planCurrency.value_or("NZD"), publicUrl_);
            if (!m.to.empty()) outbox_.enqueue(tx, m);
        });
}

} // namespace storefront::billing

#include "billing/subscriptions/subscription_service.h"

#include "billing/orders/rules.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/subscription_mail.h"
#include "catalog/money.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

using http::ApiError;
using http::ErrorKind;
namespace st = subscription_status;

namespace {

constexpr int kReminderDays = 3; // payment_reminder and trial_ending go this many days ahead

} // namespace

std::optional<std::int64_t> SubscriptionService::epochOf(const std::optional<std::string>& t) {
    if (!t) return std::nullopt;
    return db::epochFromTimestamp(*t);
}

void SubscriptionService::requireAllowed(const SubscriptionRow& row, SubscriptionAction action, std::int64_t now) {
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

nlohmann::json SubscriptionService::stateOf(const SubscriptionRow& row) {
    return {{"status", row.status},
            {"cancel_at_period_end", row.cancelAtPeriodEnd},
            {"pricing_plan_id", row.planId ? nlohmann::json(*row.planId) : nlohmann::json(nullptr)},
            {"current_period_end", row.periodEnd ? nlohmann::json(*row.periodEnd) : nlohmann::json(nullptr)}};
}

void SubscriptionService::failedAtProvider(const std::string& what, const ProviderError& e) {
    Poco::Logger::get("billing").warning("subscription %s: %s", what, std::string(e.what()));
    throw ApiError(ErrorKind::BadGateway, "payment_provider_error",
                    "The payment provider did not confirm the change. Nothing changed; please try again.");
}

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

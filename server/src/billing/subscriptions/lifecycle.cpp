#include "billing/subscriptions/lifecycle.h"

#include "db/database.h"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace storefront::billing {

namespace {

namespace st = subscription_status;

// The table: each action, the statuses it is allowed from, and what the cancel-at-period-end flag
// and the period must be. Resume undoes a scheduled cancellation while the period lasts; a plan
// change waits until a scheduled cancellation is undone (Stripe would carry it over silently).
struct ActionRule {
    SubscriptionAction action;
    std::initializer_list<const char*> from;
    enum class Flag { Any, Set, Clear } flag;
    bool needsPeriodLeft;
};

const std::array<ActionRule, 4> kTable = {{
    {SubscriptionAction::CancelAtPeriodEnd, {st::kActive, st::kTrialing, st::kPastDue}, ActionRule::Flag::Clear, true},
    {SubscriptionAction::CancelNow, {st::kPending, st::kActive, st::kTrialing, st::kPastDue}, ActionRule::Flag::Any, false},
    {SubscriptionAction::Resume, {st::kActive, st::kTrialing, st::kPastDue}, ActionRule::Flag::Set, true},
    {SubscriptionAction::ChangePlan, {st::kActive, st::kTrialing}, ActionRule::Flag::Clear, true},
}};

bool matches(const ActionRule& rule, const SubscriptionFacts& f) {
    if (std::none_of(rule.from.begin(), rule.from.end(), [&](const char* s) { return f.status == s; })) return false;
    if (rule.flag == ActionRule::Flag::Set && !f.cancelAtPeriodEnd) return false;
    if (rule.flag == ActionRule::Flag::Clear && f.cancelAtPeriodEnd) return false;
    return !(rule.needsPeriodLeft && f.periodOver);
}

} // namespace

const char* actionName(SubscriptionAction action) {
    switch (action) {
    case SubscriptionAction::CancelAtPeriodEnd: return "cancel_at_period_end";
    case SubscriptionAction::CancelNow: return "cancel_now";
    case SubscriptionAction::Resume: return "resume";
    case SubscriptionAction::ChangePlan: return "change_plan";
    }
    return "unknown";
}

SubscriptionFacts factsOf(const std::string& status, bool cancelAtPeriodEnd, const std::optional<std::string>& periodEnd,
                          std::int64_t now) {
    return {status, cancelAtPeriodEnd, periodEnd && db::epochFromTimestamp(*periodEnd) <= now};
}

std::vector<SubscriptionAction> allowedActions(const SubscriptionFacts& facts) {
    std::vector<SubscriptionAction> out;
    for (const auto& rule : kTable)
        if (matches(rule, facts)) out.push_back(rule.action);
    return out;
}

bool isAllowed(const SubscriptionFacts& facts, SubscriptionAction action) {
    for (const auto& rule : kTable)
        if (rule.action == action) return matches(rule, facts);
    return false;
}

std::vector<std::string> allowedActionNames(const SubscriptionFacts& facts) {
    std::vector<std::string> out;
    for (auto action : allowedActions(facts)) out.emplace_back(actionName(action));
    return out;
}

bool hasEnded(const std::string& status) { return status == st::kCancelled || status == st::kExpired; }

bool holdsProduct(const std::string& status) {
    return status == st::kActive || status == st::kTrialing || status == st::kPastDue;
}

} // namespace storefront::billing

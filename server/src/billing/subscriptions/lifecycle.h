#pragma once
// The subscription lifecycle in one table (docs/billing.md, "Subscription lifecycle"): the statuses
// a subscription has, which of them hold the product, and what its owner or staff may do to it
// from each. The server checks every action against this table before it asks the provider; an
// action the table does not allow is 409 invalid_transition and changes nothing. The provider's
// own news (events) may move a subscription between any statuses but out of an ended one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

namespace subscription_status {
inline constexpr const char* kPending = "pending";   // the first payment has not arrived (incomplete)
inline constexpr const char* kTrialing = "trialing"; // a trial: no charge until trial_end
inline constexpr const char* kActive = "active";
inline constexpr const char* kPastDue = "past_due";  // a renewal failed: access lasts the grace period
inline constexpr const char* kCancelled = "cancelled";
inline constexpr const char* kExpired = "expired";
} // namespace subscription_status

// What the owner (dashboard) or staff may do to a subscription.
enum class SubscriptionAction { CancelAtPeriodEnd, CancelNow, Resume, ChangePlan };

// "cancel_at_period_end" | "cancel_now" | "resume" | "change_plan": the words of allowed_actions.
const char* actionName(SubscriptionAction action);

struct SubscriptionFacts {
    std::string status;
    bool cancelAtPeriodEnd = false;
    bool periodOver = false; // current_period_end has passed
};

// The facts of a stored subscription at `now` (unix seconds): its period is over once its stored
// current_period_end (ISO-8601 UTC) has passed.
SubscriptionFacts factsOf(const std::string& status, bool cancelAtPeriodEnd, const std::optional<std::string>& periodEnd,
                          std::int64_t now);

// The actions the table allows from these facts, in the table's order.
std::vector<SubscriptionAction> allowedActions(const SubscriptionFacts& facts);
bool isAllowed(const SubscriptionFacts& facts, SubscriptionAction action);
std::vector<std::string> allowedActionNames(const SubscriptionFacts& facts);

// Cancelled and expired subscriptions have ended: nothing moves them again.
bool hasEnded(const std::string& status);
// Active, trialing and past due hold the product: at most one per user and product (the partial
// unique index of migration 0025), and checkout of the same product is refused.
bool holdsProduct(const std::string& status);

} // namespace storefront::billing

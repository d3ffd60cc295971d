#pragma once
// SQL for the local demo's billing rows (Module::demo, STOREFRONT_DEMO_DATA only): orders and
// subscriptions written with times in the past, so every admin list has rows to look at.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::billing {

struct DemoOrder {
    std::optional<std::string> userId, email, productId;
    std::string status, productName, createdAt, statusSource = "system";
    std::int64_t quantity = 1, unitAmount = 0;
    bool paidAfterCancellation = false;
};

class DemoRepository {
public:
    // The product's id and (for plans) the first plan's id by slug, when the catalogue has it.
    std::optional<std::string> productId(db::Tx& tx, const std::string& slug);
    std::optional<std::string> firstPlanId(db::Tx& tx, const std::string& productId);
    // Returns the order's id (order number DEMO-nnnn from `number`).
    std::string insertOrder(db::Tx& tx, const DemoOrder& order, int number);
    void insertHistory(db::Tx& tx, const std::string& orderId, int seq, const std::string& at,
                       const std::optional<std::string>& from, const std::string& to, const std::string& source,
                       const std::optional<std::string>& actorEmail, const std::optional<std::string>& note);
    void insertLatePayment(db::Tx& tx, const std::string& orderId, const std::string& at, std::int64_t amount);
    void insertSubscription(db::Tx& tx, const std::string& userId, const std::string& productId,
                            const std::optional<std::string>& planId, const std::string& status, const std::string& createdAt,
                            const std::optional<std::string>& periodEnd,
                            const std::optional<std::string>& pastDueSince = std::nullopt, bool cancelAtPeriodEnd = false);
    // A subscription that began at `createdAt` and ended (cancelled or expired) at `endedAt`;
    // its provider id is "sub_chart_<n>".
    void insertEndedSubscription(db::Tx& tx, const std::string& userId, const std::string& productId,
                                 const std::optional<std::string>& planId, const std::string& status, const std::string& createdAt,
                                 const std::string& endedAt, int n);
    // A payments ledger entry at `at` (kind: ledger_kind::*; amount signed minor units).
    void insertLedger(db::Tx& tx, const std::string& kind, std::int64_t amount, const std::string& currency, const std::string& at,
                      const std::optional<std::string>& orderId = std::nullopt,
                      const std::optional<std::string>& subscriptionId = std::nullopt);
    // The id of the subscription with this provider id.
    std::optional<std::string> subscriptionId(db::Tx& tx, const std::string& providerSubscriptionId);
};

} // namespace storefront::billing

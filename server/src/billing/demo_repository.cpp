#include "billing/demo_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kProductId = "SELECT CAST(id AS TEXT) FROM products WHERE slug = ?";
constexpr const char* kFirstPlan =
    "SELECT CAST(id AS TEXT) FROM pricing_plans WHERE product_id = ? ORDER BY sort_order, name LIMIT 1";
constexpr const char* kInsertOrder =
    "INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, created_at, updated_at, "
    "status_source, paid_after_cancellation) VALUES (?, ?, ?, ?, ?, 'NZD', ?, ?, ?, ?, ?)";
constexpr const char* kInsertItem =
    "INSERT INTO order_items (id, order_id, product_id, product_name, quantity, unit_amount) VALUES (?, ?, ?, ?, ?, ?)";
constexpr const char* kInsertHistory =
    "INSERT INTO order_status_history (id, order_id, seq, at, from_status, to_status, source, actor_email, note) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kInsertLatePayment =
    "INSERT INTO order_late_payments (id, order_id, at, amount, currency, provider, provider_reference) "
    "VALUES (?, ?, ?, ?, 'NZD', 'local', ?)";
constexpr const char* kInsertSubscription =
    "INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, provider_subscription_id, "
    "current_period_end, cancel_at_period_end, past_due_since, created_at, updated_at, ended_at) "
    "VALUES (?, ?, ?, ?, ?, 'local', ?, ?, ?, ?, ?, ?, ?)";

constexpr const char* kInsertEndedSubscription =
    "INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, provider_subscription_id, "
    "current_period_end, cancel_at_period_end, created_at, updated_at, ended_at) VALUES (?, ?, ?, ?, ?, 'local', ?, ?, FALSE, ?, ?, ?)";
constexpr const char* kInsertLedger =
    "INSERT INTO payment_ledger (id, entry_key, kind, amount, currency, provider, order_id, subscription_id, occurred_at) "
    "VALUES (?, ?, ?, ?, ?, 'local', ?, ?, ?)";
constexpr const char* kSubscriptionId = "SELECT CAST(id AS TEXT) FROM subscriptions WHERE payment_provider = 'local' AND provider_subscription_id = ?";

} // namespace

std::optional<std::string> DemoRepository::productId(db::Tx& tx, const std::string& slug) {
    return tx.query(kProductId).bind(slug).text();
}

std::optional<std::string> DemoRepository::firstPlanId(db::Tx& tx, const std::string& productId) {
    return tx.query(kFirstPlan).bind(productId).text();
}

std::string DemoRepository::insertOrder(db::Tx& tx, const DemoOrder& o, int number) {
    const auto id = db::newId();
    std::string digits = std::to_string(number);
    digits.insert(0, digits.size() < 4 ? 4 - digits.size() : 0, '0');
    tx.query(kInsertOrder)
        .bind(id, "DEMO-" + digits, o.userId, o.status, o.quantity * o.unitAmount, o.email, o.createdAt, o.createdAt)
        .bind(o.statusSource, o.paidAfterCancellation)
        .run();
    tx.query(kInsertItem).bind(db::newId(), id, o.productId, o.productName, o.quantity, o.unitAmount).run();
    return id;
}

void DemoRepository::insertHistory(db::Tx& tx, const std::string& orderId, int seq, const std::string& at,
                                   const std::optional<std::string>& from, const std::string& to, const std::string& source,
                                   const std::optional<std::string>& actorEmail, const std::optional<std::string>& note) {
    tx.query(kInsertHistory).bind(db::newId(), orderId, seq, at, from, to, source, actorEmail, note).run();
}

void DemoRepository::insertLatePayment(db::Tx& tx, const std::string& orderId, const std::string& at, std::int64_t amount) {
    tx.query(kInsertLatePayment).bind(db::newId(), orderId, at, amount, "pi_demo_" + orderId.substr(0, 8)).run();
}

void DemoRepository::insertSubscription(db::Tx& tx, const std::string& userId, const std::string& productId,
                                        const std::optional<std::string>& planId, const std::string& status,
                                        const std::string& createdAt, const std::optional<std::string>& periodEnd,
                                        const std::optional<std::string>& pastDueSince, bool cancelAtPeriodEnd) {
    tx.query(kInsertSubscription)
        .bind(db::newId(), userId, productId, planId, status, "sub_demo_" + userId.substr(0, 8) + "_" + status, periodEnd)
        .bind(cancelAtPeriodEnd, pastDueSince, createdAt, createdAt)
        .bind(status == "cancelled" || status == "expired" ? periodEnd : std::nullopt)
        .run();
}

void DemoRepository::insertEndedSubscription(db::Tx& tx, const std::string& userId, const std::string& productId,
                                             const std::optional<std::string>& planId, const std::string& status,
                                             const std::string& createdAt, const std::string& endedAt, int n) {
    tx.query(kInsertEndedSubscription)
        .bind(db::newId(), userId, productId, planId, status, "sub_chart_" + std::to_string(n), endedAt)
        .bind(createdAt, endedAt, endedAt)
        .run();
}

void DemoRepository::insertLedger(db::Tx& tx, const std::string& kind, std::int64_t amount, const std::string& currency,
                                  const std::string& at, const std::optional<std::string>& orderId,
                                  const std::optional<std::string>& subscriptionId) {
    const auto id = db::newId();
    tx.query(kInsertLedger).bind(id, "demo:" + id, kind, amount, currency, orderId, subscriptionId, at).run();
}

std::optional<std::string> DemoRepository::subscriptionId(db::Tx& tx, const std::string& providerSubscriptionId) {
    return tx.query(kSubscriptionId).bind(providerSubscriptionId).text();
}

} // namespace storefront::billing

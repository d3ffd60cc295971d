#include "billing/provider/local_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kCheckout =
    "SELECT CAST(c.id AS TEXT) AS id, c.status, c.mode, c.quantity, c.amount_total, c.currency, c.success_url, "
    "c.cancel_url, i.product_name, i.unit_amount, p.billing_frequency_unit, p.billing_frequency_value, c.collects_shipping, c.trial_days "
    "FROM checkout_sessions c JOIN order_items i ON i.order_id = c.order_id "
    "LEFT JOIN pricing_plans p ON p.id = c.pricing_plan_id WHERE c.provider = 'local' AND c.provider_session_id = ?";
constexpr const char* kPayer =
    "SELECT CAST(c.user_id AS TEXT) AS user_id, CAST(c.product_id AS TEXT) AS product_id, "
    "CAST(c.pricing_plan_id AS TEXT) AS pricing_plan_id, o.customer_email, pc.provider_customer_id "
    "FROM checkout_sessions c JOIN orders o ON o.id = c.order_id "
    "LEFT JOIN payment_customers pc ON pc.user_id = c.user_id AND pc.provider = 'local' WHERE c.id = ?";
constexpr const char* kInsertPortal =
    "INSERT INTO billing_portal_sessions (id, user_id, return_url, expires_at, created_at) "
    "SELECT ?, user_id, ?, ?, ? FROM payment_customers WHERE provider = 'local' AND provider_customer_id = ? RETURNING id";
constexpr const char* kPortal =
    "SELECT b.return_url, sub.provider_subscription_id, sub.status, CAST(sub.current_period_end AS TEXT) AS current_period_end, "
    "sub.cancel_at_period_end, p.name, COALESCE(o.outcome, 'succeeded') AS outcome FROM billing_portal_sessions b "
    "LEFT JOIN subscriptions sub ON sub.user_id = b.user_id AND sub.payment_provider = 'local' "
    "LEFT JOIN products p ON p.id = sub.product_id "
    "LEFT JOIN local_renewal_outcomes o ON o.provider_subscription_id = sub.provider_subscription_id "
    "WHERE b.id = ? AND b.expires_at > ? ORDER BY sub.created_at DESC";

constexpr const char* kSubscription =
    "SELECT sub.provider_subscription_id, sub.status, CAST(sub.user_id AS TEXT) AS user_id, "
    "CAST(sub.product_id AS TEXT) AS product_id, p.name AS product_name, CAST(sub.pricing_plan_id AS TEXT) AS plan_id, "
    "pp.name AS plan_name, sub.provider_customer_id, u.email, CAST(sub.current_period_start AS TEXT) AS current_period_start, "
    "CAST(sub.current_period_end AS TEXT) AS current_period_end, CAST(sub.trial_end AS TEXT) AS trial_end, "
    "sub.cancel_at_period_end, sub.credit_balance, COALESCE(pp.price_amount, p.price_nzd) AS amount, "
    "COALESCE(pp.currency, 'NZD') AS currency, COALESCE(pp.billing_frequency_unit, 'month') AS unit, "
    "COALESCE(pp.billing_frequency_value, 1) AS count, COALESCE(o.outcome, 'succeeded') AS outcome "
    "FROM subscriptions sub JOIN products p ON p.id = sub.product_id JOIN users u ON u.id = sub.user_id "
    "LEFT JOIN pricing_plans pp ON pp.id = sub.pricing_plan_id "
    "LEFT JOIN local_renewal_outcomes o ON o.provider_subscription_id = sub.provider_subscription_id "
    "WHERE sub.payment_provider = 'local' AND sub.provider_subscription_id = ?";
constexpr const char* kDueForRenewal =
    "SELECT provider_subscription_id FROM subscriptions WHERE payment_provider = 'local' AND provider_subscription_id LIKE 'sub_local_%' "
    "AND status IN ('active', 'trialing') AND current_period_end <= ? ORDER BY current_period_end LIMIT 100";
constexpr const char* kSetOutcome =
    "INSERT INTO local_renewal_outcomes (provider_subscription_id, outcome) VALUES (?, ?) "
    "ON CONFLICT (provider_subscription_id) DO UPDATE SET outcome = excluded.outcome";

} // namespace

std::optional<LocalSubscription> LocalRepository::subscription(const std::string& providerId) {
    auto s = db_.session();
    return db::query(s, kSubscription).bind(providerId).one([](const db::Row& r) {
        LocalSubscription l;
        l.providerId = r.text("provider_subscription_id");
        l.status = r.text("status");
        l.userId = r.text("user_id");
        l.productId = r.text("product_id");
        l.productName = r.text("product_name");
        l.planId = r.optText("plan_id");
        l.planName = r.optText("plan_name");
        l.customerId = r.optText("provider_customer_id");
        l.email = r.optText("email");
        l.periodStart = r.optTimestamp("current_period_start");
        l.periodEnd = r.optTimestamp("current_period_end");
        l.trialEnd = r.optTimestamp("trial_end");
        l.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
        l.creditBalance = r.int64("credit_balance");
        l.amount = r.int64("amount");
        l.currency = r.text("currency");
        l.unit = r.text("unit");
        l.count = r.int64("count");
        l.outcome = r.text("outcome");
        return l;
    });
}

std::vector<std::string> LocalRepository::dueForRenewal(const std::string& now) {
    auto s = db_.session();
    return db::query(s, kDueForRenewal).bind(now).all([](const db::Row& r) { return r.text("provider_subscription_id"); });
}

void LocalRepository::setOutcome(const std::string& providerId, const std::string& outcome) {
    db_.write([&](db::Tx& tx) { tx.query(kSetOutcome).bind(providerId, outcome).run(); });
}

std::optional<LocalCheckoutView> LocalRepository::checkout(const std::string& sessionId) {
    auto s = db_.session();
    return db::query(s, kCheckout).bind(sessionId).one([](const db::Row& r) {
        LocalCheckoutView v;
        v.checkoutId = r.text("id");
        v.status = r.text("status");
        v.mode = r.text("mode");
        v.itemName = r.text("product_name");
        v.quantity = r.int64("quantity");
        v.unitAmount = r.int64("unit_amount");
        v.amountTotal = r.int64("amount_total");
        v.currency = r.text("currency");
        v.interval = r.optText("billing_frequency_unit");
        v.intervalCount = r.optInt64("billing_frequency_value");
        v.successUrl = r.text("success_url");
        v.cancelUrl = r.text("cancel_url");
        v.collectsShipping = r.boolean("collects_shipping");
        v.trialDays = r.int64("trial_days");
        return v;
    });
}

std::optional<LocalPayer> LocalRepository::payer(const std::string& checkoutId) {
    auto s = db_.session();
    return db::query(s, kPayer).bind(checkoutId).one([](const db::Row& r) {
        return LocalPayer{r.optText("user_id"), r.optText("product_id"), r.optText("pricing_plan_id"),
                          r.optText("customer_email"), r.optText("provider_customer_id")};
    });
}

bool LocalRepository::insertPortal(const std::string& token, const std::string& customerId, const std::string& returnUrl,
                                   const std::string& expiresAt) {
    bool inserted = false;
    db_.write([&](db::Tx& tx) {
        inserted = tx.query(kInsertPortal).bind(token, returnUrl, expiresAt, tx.clock().nowTimestamp(), customerId).changed() > 0;
    });
    return inserted;
}

std::vector<LocalPortalRow> LocalRepository::portal(const std::string& token) {
    auto s = db_.session();
    return db::query(s, kPortal).bind(token, db_.clock().nowTimestamp()).all([](const db::Row& r) {
        LocalPortalRow row{r.text("return_url"), r.optText("provider_subscription_id"), r.optText("name"),
                           r.optText("status"), r.optTimestamp("current_period_end")};
        row.cancelAtPeriodEnd = r.optText("provider_subscription_id") && r.boolean("cancel_at_period_end");
        row.outcome = r.text("outcome");
        return row;
    });
}

} // namespace storefront::billing

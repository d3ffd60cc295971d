#include "billing/provider/local_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kCheckout =
    "SELECT CAST(c.id AS TEXT) AS id, c.status, c.mode, c.quantity, c.amount_total, c.currency, c.success_url, "
    "c.cancel_url, i.product_name, i.unit_amount, p.billing_frequency_unit, p.billing_frequency_value, c.collects_shipping "
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
    "p.name FROM billing_portal_sessions b "
    "LEFT JOIN subscriptions sub ON sub.user_id = b.user_id AND sub.payment_provider = 'local' "
    "LEFT JOIN products p ON p.id = sub.product_id WHERE b.id = ? AND b.expires_at > ? ORDER BY sub.created_at DESC";

} // namespace

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
        return LocalPortalRow{r.text("return_url"), r.optText("provider_subscription_id"), r.optText("name"),
                              r.optText("status"), r.optTimestamp("current_period_end")};
    });
}

} // namespace storefront::billing

#include "billing/orders/checkout_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kInsertCheckout =
    "INSERT INTO checkout_sessions (id, user_id, order_id, product_id, pricing_plan_id, mode, quantity, amount_total, "
    "currency, provider, success_url, cancel_url, status, stock_reserved, stock_state, expires_at, created_at, updated_at, "
    "collects_shipping, trial_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'creating', ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kLink =
    "UPDATE checkout_sessions SET provider_session_id = ?, url = ?, updated_at = ?, "
    "status = CASE WHEN status = 'creating' THEN 'open' ELSE status END WHERE id = ?";
constexpr const char* kOpenOrdersOf =
    "SELECT DISTINCT CAST(order_id AS TEXT) AS order_id FROM checkout_sessions WHERE user_id = ? "
    "AND status IN ('creating', 'open') ORDER BY 1";
constexpr const char* kTrialTaken =
    "SELECT id FROM checkout_sessions WHERE user_id = ? AND product_id = ? AND trial_days > 0 AND status <> 'expired'";
constexpr const char* kSetSessionId = "UPDATE checkout_sessions SET provider_session_id = ? WHERE id = ?";
constexpr const char* kExpireUnopened =
    "UPDATE checkout_sessions SET status = 'expired', stock_state = CASE WHEN stock_state = 'reserved' THEN 'released' "
    "ELSE stock_state END, updated_at = ? WHERE id = ? AND status = 'creating' "
    "RETURNING CAST(order_id AS TEXT) AS order_id, CAST(product_id AS TEXT) AS product_id, stock_reserved, stock_state";
constexpr const char* kColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(order_id AS TEXT) AS order_id, "
    "CAST(product_id AS TEXT) AS product_id, CAST(pricing_plan_id AS TEXT) AS pricing_plan_id, mode, status, "
    "stock_state, quantity, stock_reserved, provider_session_id FROM checkout_sessions ";
const std::string kFindById = std::string(kColumns) + "WHERE id = ? AND provider = ?";
const std::string kFindBySession = std::string(kColumns) + "WHERE provider = ? AND provider_session_id = ?";
constexpr const char* kCompleted =
    "UPDATE checkout_sessions SET status = 'completed', stock_state = CASE WHEN stock_state = 'none' THEN 'none' "
    "ELSE 'settled' END, updated_at = ? WHERE id = ?";
constexpr const char* kAwaitingPayment =
    "UPDATE checkout_sessions SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'open'";
constexpr const char* kExpired =
    "UPDATE checkout_sessions SET status = 'expired', stock_state = CASE WHEN stock_state = 'reserved' THEN 'released' "
    "ELSE stock_state END, updated_at = ? WHERE id = ?";
constexpr const char* kReleaseReservation =
    "UPDATE checkout_sessions SET stock_state = 'released', updated_at = ? "
    "WHERE order_id = ? AND stock_state = 'reserved' AND product_id IS NOT NULL "
    "RETURNING CAST(product_id AS TEXT) AS product_id, stock_reserved";
constexpr const char* kReturnStock =
    "UPDATE checkout_sessions SET stock_state = 'released', updated_at = ? "
    "WHERE order_id = ? AND stock_state IN ('reserved', 'settled') AND product_id IS NOT NULL "
    "RETURNING CAST(product_id AS TEXT) AS product_id, stock_reserved";
constexpr const char* kReturnPart =
    "UPDATE checkout_sessions SET stock_reserved = stock_reserved - ?, "
    "stock_state = CASE WHEN stock_reserved = ? THEN 'released' ELSE stock_state END, updated_at = ? "
    "WHERE order_id = ? AND product_id = ? AND stock_state IN ('reserved', 'settled') AND stock_reserved >= ?";
constexpr const char* kReclaimReservation =
    "UPDATE checkout_sessions SET stock_state = 'reserved', updated_at = ? "
    "WHERE order_id = ? AND stock_state = 'released' AND product_id IS NOT NULL "
    "RETURNING CAST(product_id AS TEXT) AS product_id, stock_reserved";
constexpr const char* kSettleReservation =
    "UPDATE checkout_sessions SET stock_state = 'settled', updated_at = ? WHERE order_id = ? AND stock_state = 'reserved'";
constexpr const char* kExpireOpen =
    "UPDATE checkout_sessions SET status = 'expired', updated_at = ? WHERE order_id = ? AND status IN ('creating', 'open') "
    "RETURNING provider, provider_session_id";
constexpr const char* kCompletedForOrder = "SELECT 1 FROM checkout_sessions WHERE order_id = ? AND status = 'completed'";
constexpr const char* kCompletedOnly = "UPDATE checkout_sessions SET status = 'completed', updated_at = ? WHERE id = ?";
constexpr const char* kProgress =
    "SELECT CAST(c.id AS TEXT) AS id, c.status, c.mode, c.provider_session_id, p.slug, o.order_number, "
    "o.status AS order_status, o.total_amount, o.currency FROM checkout_sessions c JOIN orders o ON o.id = c.order_id "
    "LEFT JOIN products p ON p.id = c.product_id WHERE c.id = ? AND c.user_id = ?";
constexpr const char* kStatus = "SELECT status FROM checkout_sessions WHERE id = ?";
constexpr const char* kDue =
    "SELECT CAST(id AS TEXT) AS id, provider_session_id FROM checkout_sessions "
    "WHERE status IN ('creating', 'open') AND provider = ? AND expires_at < ? ORDER BY expires_at LIMIT ?";
// The inbox row first: a concurrent delivery of the same event waits on it and then finds it.
constexpr const char* kRecordEvent =
    "INSERT INTO payment_events (provider, event_id, type, event_created_at, received_at, outcome, payload) "
    "VALUES (?, ?, ?, ?, ?, 'ignored', ?) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id";
constexpr const char* kEventApplied = "UPDATE payment_events SET outcome = 'applied' WHERE provider = ? AND event_id = ?";

Checkout readCheckout(const db::Row& r) {
    Checkout c;
    c.id = r.text("id");
    c.userId = r.optText("user_id");
    c.orderId = r.text("order_id");
    c.productId = r.optText("product_id");
    c.planId = r.optText("pricing_plan_id");
    c.mode = r.text("mode");
    c.status = r.text("status");
    c.stockState = r.text("stock_state");
    c.quantity = r.int64("quantity");
    c.stockReserved = r.int64("stock_reserved");
    c.providerSessionId = r.optText("provider_session_id");
    return c;
}

} // namespace

void CheckoutRepository::insert(db::Tx& tx, const NewCheckout& c) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertCheckout)
        .bind(c.id, c.userId, c.orderId, c.productId, c.planId, c.mode, c.quantity, c.amountTotal, c.currency, c.provider)
        .bind(c.successUrl, c.cancelUrl, c.stockReserved, c.stockState, c.expiresAt, at, at, c.collectsShipping, c.trialDays)
        .run();
}

void CheckoutRepository::linkProviderSession(const std::string& checkoutId, const std::string& sessionId,
                                             const std::string& url) {
    db_.write([&](db::Tx& tx) { tx.query(kLink).bind(sessionId, url, tx.clock().nowTimestamp(), checkoutId).run(); });
}

std::vector<std::string> CheckoutRepository::openOrdersOf(db::Tx& tx, const std::string& userId) {
    return tx.query(kOpenOrdersOf).bind(userId).all([](const db::Row& r) { return r.text("order_id"); });
}

bool CheckoutRepository::trialTaken(db::Tx& tx, const std::string& userId, const std::string& productId) {
    return tx.query(kTrialTaken).bind(userId, productId).exists();
}

void CheckoutRepository::setProviderSessionId(db::Tx& tx, const std::string& checkoutId, const std::string& sessionId) {
    tx.query(kSetSessionId).bind(sessionId, checkoutId).run();
}

std::optional<Released> CheckoutRepository::expireUnopened(db::Tx& tx, const std::string& checkoutId) {
    return tx.query(kExpireUnopened).bind(tx.clock().nowTimestamp(), checkoutId).one([](const db::Row& r) {
        return Released{r.text("order_id"), r.optText("product_id"), r.int64("stock_reserved"),
                        r.text("stock_state") == "released"};
    });
}

std::optional<Checkout> CheckoutRepository::findById(db::Tx& tx, const std::string& checkoutId, const std::string& provider) {
    return tx.query(kFindById).bind(checkoutId, provider).one(readCheckout);
}

std::optional<Checkout> CheckoutRepository::findByProviderSession(db::Tx& tx, const std::string& provider,
                                                                 const std::string& sessionId) {
    return tx.query(kFindBySession).bind(provider, sessionId).one(readCheckout);
}

void CheckoutRepository::markCompleted(db::Tx& tx, const std::string& checkoutId) {
    tx.query(kCompleted).bind(tx.clock().nowTimestamp(), checkoutId).run();
}

void CheckoutRepository::markAwaitingPayment(db::Tx& tx, const std::string& checkoutId) {
    tx.query(kAwaitingPayment).bind(tx.clock().nowTimestamp(), checkoutId).run();
}

void CheckoutRepository::markExpired(db::Tx& tx, const std::string& checkoutId) {
    tx.query(kExpired).bind(tx.clock().nowTimestamp(), checkoutId).run();
}

namespace {

CheckoutRepository::Reservation readReservation(const db::Row& r) {
    return {r.text("product_id"), r.int64("stock_reserved")};
}

} // namespace

std::vector<CheckoutRepository::Reservation> CheckoutRepository::releaseReservation(db::Tx& tx, const std::string& orderId) {
    return tx.query(kReleaseReservation).bind(tx.clock().nowTimestamp(), orderId).all(readReservation);
}

std::vector<CheckoutRepository::Reservation> CheckoutRepository::returnStock(db::Tx& tx, const std::string& orderId) {
    return tx.query(kReturnStock).bind(tx.clock().nowTimestamp(), orderId).all(readReservation);
}

bool CheckoutRepository::returnPart(db::Tx& tx, const std::string& orderId, const std::string& productId,
                                    std::int64_t quantity) {
    return tx.query(kReturnPart).bind(quantity, quantity, tx.clock().nowTimestamp(), orderId, productId, quantity).changed() > 0;
}

std::vector<CheckoutRepository::Reservation> CheckoutRepository::reclaimReservation(db::Tx& tx, const std::string& orderId) {
    return tx.query(kReclaimReservation).bind(tx.clock().nowTimestamp(), orderId).all(readReservation);
}

void CheckoutRepository::settleReservation(db::Tx& tx, const std::string& orderId) {
    tx.query(kSettleReservation).bind(tx.clock().nowTimestamp(), orderId).run();
}

std::vector<std::pair<std::string, std::optional<std::string>>> CheckoutRepository::expireOpen(db::Tx& tx,
                                                                                               const std::string& orderId) {
    return tx.query(kExpireOpen).bind(tx.clock().nowTimestamp(), orderId).all([](const db::Row& r) {
        return std::make_pair(r.text("provider"), r.optText("provider_session_id"));
    });
}

void CheckoutRepository::markCompletedOnly(db::Tx& tx, const std::string& checkoutId) {
    tx.query(kCompletedOnly).bind(tx.clock().nowTimestamp(), checkoutId).run();
}

bool CheckoutRepository::completedForOrder(db::Tx& tx, const std::string& orderId) {
    return tx.query(kCompletedForOrder).bind(orderId).exists();
}

std::optional<CheckoutProgress> CheckoutRepository::progress(const std::string& userId, const std::string& checkoutId) {
    auto s = db_.session();
    return db::query(s, kProgress).bind(checkoutId, userId).one([](const db::Row& r) {
        CheckoutProgress p;
        p.id = r.text("id");
        p.status = r.text("status");
        p.mode = r.text("mode");
        p.providerSessionId = r.optText("provider_session_id");
        p.productSlug = r.optText("slug");
        p.orderNumber = r.text("order_number");
        p.orderStatus = r.text("order_status");
        p.totalAmount = r.int64("total_amount");
        p.currency = r.text("currency");
        return p;
    });
}

std::optional<std::string> CheckoutRepository::status(const std::string& checkoutId) {
    auto s = db_.session();
    return db::query(s, kStatus).bind(checkoutId).text();
}

std::vector<std::pair<std::string, std::optional<std::string>>> CheckoutRepository::due(const std::string& provider,
                                                                                        const std::string& cutoff, int limit) {
    auto s = db_.session();
    return db::query(s, kDue).bind(provider, cutoff, limit).all([](const db::Row& r) {
        return std::make_pair(r.text("id"), r.optText("provider_session_id"));
    });
}

bool CheckoutRepository::recordEvent(db::Tx& tx, const std::string& provider, const std::string& eventId,
                                     const std::string& type, const std::string& eventAt, const std::string& payload) {
    return tx.query(kRecordEvent).bind(provider, eventId, type, eventAt, tx.clock().nowTimestamp(), payload).changed() > 0;
}

void CheckoutRepository::markEventApplied(db::Tx& tx, const std::string& provider, const std::string& eventId) {
    tx.query(kEventApplied).bind(provider, eventId).run();
}

} // namespace storefront::billing

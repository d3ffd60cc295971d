#include "billing/books/ledger_repository.h"

#include <algorithm>

namespace storefront::billing {

namespace {

constexpr const char* kAdd =
    "INSERT INTO payment_ledger (id, entry_key, kind, amount, currency, provider, provider_id, order_id, subscription_id, "
    "refund_id, event_id, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (entry_key) DO NOTHING RETURNING id";
constexpr const char* kSetProviderPayment =
    "UPDATE orders SET payment_provider = ?, provider_payment_id = ? WHERE id = ? AND provider_payment_id IS NULL";
constexpr const char* kRefundable =
    "SELECT o.status, o.currency, o.total_amount, o.refunded_amount, o.provider_payment_id, o.payment_provider, "
    "o.customer_email, o.order_number, CAST(o.restocked_at AS TEXT) AS restocked_at, o.paid_after_cancellation "
    "FROM orders o WHERE o.id = ?";
constexpr const char* kOrderOfPayment =
    "SELECT CAST(id AS TEXT) AS id FROM orders WHERE provider_payment_id = ? AND payment_provider = ?";

constexpr const char* kRefundColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(order_id AS TEXT) AS order_id, amount, currency, reason, restock, status, source, "
    "provider, provider_refund_id, client_key, actor_email, CAST(created_at AS TEXT) AS created_at, "
    "CAST(late_payment_id AS TEXT) AS late_payment_id FROM order_refunds ";
const std::string kFindRefund = std::string(kRefundColumns) + "WHERE id = ?";
const std::string kRefundByClientKey = std::string(kRefundColumns) + "WHERE order_id = ? AND client_key = ?";
const std::string kRefundByProviderId = std::string(kRefundColumns) + "WHERE provider = ? AND provider_refund_id = ?";
const std::string kRequestedRefund =
    std::string(kRefundColumns) + "WHERE order_id = ? AND status = 'requested' AND late_payment_id IS NULL ORDER BY created_at, id LIMIT 1";
const std::string kUnmatchedProviderRefund = std::string(kRefundColumns) +
                                             "WHERE order_id = ? AND source = 'provider' AND provider_refund_id IS NULL AND late_payment_id IS NULL "
                                             "AND amount = ? ORDER BY created_at, id LIMIT 1";
const std::string kRefundsOf = std::string(kRefundColumns) + "WHERE order_id = ? ORDER BY created_at, id";
// Refunds by line (migration 0023). A refund counts while requested, pending or succeeded.
constexpr const char* kRequestedAmount =
    "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM order_refunds WHERE order_id = ? AND status = 'requested' "
    "AND late_payment_id IS NULL";
constexpr const char* kRefundableItems =
    "SELECT CAST(i.id AS TEXT) AS id, i.product_name, CAST(i.product_id AS TEXT) AS product_id, i.quantity, i.unit_amount, "
    "i.restocked_quantity, CAST(COALESCE((SELECT SUM(l.quantity) FROM order_refund_lines l JOIN order_refunds r "
    "ON r.id = l.refund_id WHERE l.order_item_id = i.id AND r.status IN ('requested', 'pending', 'succeeded')), 0) "
    "AS BIGINT) AS refunded FROM order_items i WHERE i.order_id = ? ORDER BY i.product_name, i.id";
constexpr const char* kRefundedQuantities =
    "SELECT CAST(l.order_item_id AS TEXT) AS item, CAST(SUM(l.quantity) AS BIGINT) AS quantity FROM order_refund_lines l "
    "JOIN order_refunds r ON r.id = l.refund_id WHERE r.order_id = ? AND r.status IN ('requested', 'pending', 'succeeded') "
    "GROUP BY l.order_item_id";
constexpr const char* kInsertRefundLine = "INSERT INTO order_refund_lines (refund_id, order_item_id, quantity) VALUES (?, ?, ?)";
constexpr const char* kRefundLines =
    "SELECT CAST(order_item_id AS TEXT) AS item, quantity FROM order_refund_lines WHERE refund_id = ? ORDER BY order_item_id";
constexpr const char* kItemForRestock =
    "SELECT CAST(product_id AS TEXT) AS product_id, quantity, restocked_quantity FROM order_items WHERE id = ? AND order_id = ?";
constexpr const char* kAddRestocked = "UPDATE order_items SET restocked_quantity = restocked_quantity + ? WHERE id = ?";
constexpr const char* kInsertRefund =
    "INSERT INTO order_refunds (id, order_id, amount, currency, reason, restock, status, source, provider, "
    "provider_refund_id, client_key, actor_id, actor_email, created_at, updated_at, late_payment_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kSetRefundStatus =
    "UPDATE order_refunds SET status = ?, provider_refund_id = COALESCE(provider_refund_id, ?), updated_at = ? WHERE id = ?";
constexpr const char* kAddRefunded =
    "UPDATE orders SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?";
constexpr const char* kStatusBeforeRefunded =
    "SELECT from_status FROM order_status_history WHERE order_id = ? AND to_status = 'refunded' "
    "AND from_status <> 'refunded' ORDER BY seq DESC LIMIT 1";
constexpr const char* kMarkRestocked =
    "UPDATE orders SET restocked_at = ? WHERE id = ? AND restocked_at IS NULL RETURNING id";

constexpr const char* kDisputeStatus =
    "SELECT status FROM order_disputes WHERE provider = ? AND provider_dispute_id = ?";
constexpr const char* kInsertDispute =
    "INSERT INTO order_disputes (id, order_id, provider, provider_dispute_id, amount, currency, status, reason, "
    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUpdateDispute =
    "UPDATE order_disputes SET status = ?, amount = ?, order_id = COALESCE(order_id, ?), updated_at = ? "
    "WHERE provider = ? AND provider_dispute_id = ?";
constexpr const char* kFlagDisputed = "UPDATE orders SET disputed = TRUE, updated_at = ? WHERE id = ? AND disputed = FALSE";

Refund readRefund(const db::Row& r) {
    Refund f;
    f.id = r.text("id");
    f.orderId = r.text("order_id");
    f.amount = r.int64("amount");
    f.currency = r.text("currency");
    f.reason = r.optText("reason");
    f.restock = r.boolean("restock");
    f.status = r.text("status");
    f.source = r.text("source");
    f.provider = r.text("provider");
    f.providerRefundId = r.optText("provider_refund_id");
    f.clientKey = r.optText("client_key");
    f.actorEmail = r.optText("actor_email");
    f.createdAt = r.timestamp("created_at");
    f.latePaymentId = r.optText("late_payment_id");
    return f;
}

} // namespace

bool LedgerRepository::add(db::Tx& tx, const LedgerEntry& e) {
    return tx.query(kAdd)
               .bind(db::newId(), e.entryKey, e.kind, e.amount, e.currency, e.provider, e.providerId, e.orderId)
               .bind(e.subscriptionId, e.refundId, e.eventId, tx.clock().nowTimestamp())
               .changed() > 0;
}

void LedgerRepository::setProviderPayment(db::Tx& tx, const std::string& orderId, const std::string& provider,
                                          const std::string& providerPaymentId) {
    tx.query(kSetProviderPayment).bind(provider, providerPaymentId, orderId).run();
}

std::optional<RefundableOrder> LedgerRepository::refundable(db::Tx& tx, const std::string& orderId) {
    return tx.query(kRefundable).bind(orderId).one([](const db::Row& r) {
        RefundableOrder o;
        o.status = r.text("status");
        o.currency = r.text("currency");
        o.totalAmount = r.int64("total_amount");
        o.refundedAmount = r.int64("refunded_amount");
        o.providerPaymentId = r.optText("provider_payment_id");
        o.paymentProvider = r.optText("payment_provider");
        o.customerEmail = r.optText("customer_email");
        o.orderNumber = r.optText("order_number");
        o.restocked = r.optText("restocked_at").has_value();
        o.paidAfterCancellation = r.boolean("paid_after_cancellation");
        return o;
    });
}

std::optional<std::string> LedgerRepository::orderOfPayment(db::Tx& tx, const std::string& provider,
                                                             const std::string& paymentId) {
    return tx.query(kOrderOfPayment).bind(paymentId, provider).one([](const db::Row& r) { return r.text("id"); });
}

std::string LedgerRepository::insertRefund(db::Tx& tx, const NewRefund& n) {
    const auto id = db::newId();
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertRefund)
        .bind(id, n.orderId, n.amount, n.currency, n.reason, n.restock, n.status, n.source, n.provider)
        .bind(n.providerRefundId, n.clientKey, n.actorId, n.actorEmail, at, at, n.latePaymentId)
        .run();
    for (const auto& line : n.lines) tx.query(kInsertRefundLine).bind(id, line.orderItemId, line.quantity).run();
    return id;
}

std::optional<Refund> LedgerRepository::refund(db::Tx& tx, const std::string& id) {
    return tx.query(kFindRefund).bind(id).one(readRefund);
}

std::optional<Refund> LedgerRepository::refundByClientKey(db::Tx& tx, const std::string& orderId, const std::string& key) {
    return tx.query(kRefundByClientKey).bind(orderId, key).one(readRefund);
}

std::optional<Refund> LedgerRepository::refundByProviderId(db::Tx& tx, const std::string& provider,
                                                           const std::string& providerRefundId) {
    return tx.query(kRefundByProviderId).bind(provider, providerRefundId).one(readRefund);
}

std::optional<Refund> LedgerRepository::requestedRefund(db::Tx& tx, const std::string& orderId) {
    return tx.query(kRequestedRefund).bind(orderId).one(readRefund);
}

std::optional<Refund> LedgerRepository::unmatchedProviderRefund(db::Tx& tx, const std::string& orderId, std::int64_t amount) {
    return tx.query(kUnmatchedProviderRefund).bind(orderId, amount).one(readRefund);
}

void LedgerRepository::setRefundStatus(db::Tx& tx, const std::string& id, const std::string& status,
                                       const std::optional<std::string>& providerRefundId) {
    tx.query(kSetRefundStatus).bind(status, providerRefundId, tx.clock().nowTimestamp(), id).run();
}

std::int64_t LedgerRepository::requestedAmount(db::Tx& tx, const std::string& orderId) {
    return tx.query(kRequestedAmount).bind(orderId).count();
}

std::vector<RefundableItem> LedgerRepository::refundableItems(db::Tx& tx, const std::string& orderId) {
    return tx.query(kRefundableItems).bind(orderId).all([](const db::Row& r) {
        return RefundableItem{r.text("id"),           r.text("product_name"),  r.optText("product_id"),      r.int64("quantity"),
                              r.int64("unit_amount"), r.int64("refunded"),     r.int64("restocked_quantity")};
    });
}

namespace {
std::map<std::string, std::int64_t> readQuantities(std::vector<std::pair<std::string, std::int64_t>> rows) {
    return {rows.begin(), rows.end()};
}
std::pair<std::string, std::int64_t> readQuantity(const db::Row& r) { return {r.text("item"), r.int64("quantity")}; }
} // namespace

std::map<std::string, std::int64_t> LedgerRepository::refundedQuantities(Poco::Data::Session& s, const std::string& orderId) {
    return readQuantities(db::query(s, kRefundedQuantities).bind(orderId).all(readQuantity));
}

std::map<std::string, std::int64_t> LedgerRepository::refundedQuantities(db::Tx& tx, const std::string& orderId) {
    return readQuantities(tx.query(kRefundedQuantities).bind(orderId).all(readQuantity));
}

std::vector<RefundLine> LedgerRepository::refundLines(db::Tx& tx, const std::string& refundId) {
    return tx.query(kRefundLines).bind(refundId).all([](const db::Row& r) { return RefundLine{r.text("item"), r.int64("quantity")}; });
}

LedgerRepository::Restocked LedgerRepository::restockLine(db::Tx& tx, const std::string& orderId,
                                                          const std::string& orderItemId, std::int64_t quantity) {
    struct Item {
        std::optional<std::string> productId;
        std::int64_t quantity = 0, restocked = 0;
    };
    auto item = tx.query(kItemForRestock).bind(orderItemId, orderId).one([](const db::Row& r) {
        return Item{r.optText("product_id"), r.int64("quantity"), r.int64("restocked_quantity")};
    });
    if (!item) return {};
    const std::int64_t n = std::min(quantity, item->quantity - item->restocked);
    if (n <= 0) return {};
    tx.query(kAddRestocked).bind(n, orderItemId).run();
    return {n, item->productId};
}

std::vector<Refund> LedgerRepository::refundsOf(Poco::Data::Session& s, const std::string& orderId) {
    return db::query(s, kRefundsOf).bind(orderId).all(readRefund);
}

std::vector<Refund> LedgerRepository::refundsOf(db::Tx& tx, const std::string& orderId) {
    return tx.query(kRefundsOf).bind(orderId).all(readRefund);
}

void LedgerRepository::addRefunded(db::Tx& tx, const std::string& orderId, std::int64_t delta) {
    tx.query(kAddRefunded).bind(delta, tx.clock().nowTimestamp(), orderId).run();
}

std::optional<std::string> LedgerRepository::statusBeforeRefunded(db::Tx& tx, const std::string& orderId) {
    return tx.query(kStatusBeforeRefunded).bind(orderId).one([](const db::Row& r) { return r.text("from_status"); });
}

bool LedgerRepository::markRestocked(db::Tx& tx, const std::string& orderId) {
    return tx.query(kMarkRestocked).bind(tx.clock().nowTimestamp(), orderId).changed() > 0;
}

std::optional<std::string> LedgerRepository::upsertDispute(db::Tx& tx, const std::optional<std::string>& orderId,
                                                           const std::string& provider, const std::string& disputeId,
                                                           std::int64_t amount, const std::string& currency,
                                                           const std::string& status,
                                                           const std::optional<std::string>& reason) {
    auto before = tx.query(kDisputeStatus).bind(provider, disputeId).one([](const db::Row& r) { return r.text("status"); });
    const auto at = tx.clock().nowTimestamp();
    if (before) tx.query(kUpdateDispute).bind(status, amount, orderId, at, provider, disputeId).run();
    else
        tx.query(kInsertDispute)
            .bind(db::newId(), orderId, provider, disputeId, amount, currency, status, reason)
            .bind(at, at)
            .run();
    return before;
}

void LedgerRepository::flagDisputed(db::Tx& tx, const std::string& orderId) {
    tx.query(kFlagDisputed).bind(tx.clock().nowTimestamp(), orderId).run();
}

} // namespace storefront::billing

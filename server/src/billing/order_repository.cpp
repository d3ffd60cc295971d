#include "billing/order_repository.h"

#include "billing/rules.h"

#include <stdexcept>

namespace storefront::billing {

namespace {

constexpr int kOrderNumberAttempts = 5;

// ON CONFLICT without a target: a clash of the order number (retry with another) or of the
// guest order's provider checkout (it exists: done).
constexpr const char* kInsertOrder =
    "INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, provider_checkout_id, "
    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id";
constexpr const char* kGuestOrderExists = "SELECT id FROM orders WHERE provider_checkout_id = ?";
constexpr const char* kInsertItem =
    "INSERT INTO order_items (id, order_id, product_id, pricing_plan_id, product_name, quantity, unit_amount) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kMarkPaid =
    "UPDATE orders SET status = 'paid', updated_at = ? WHERE id = ? AND status IN ('pending', 'cancelled') RETURNING id";
constexpr const char* kCancelPending =
    "UPDATE orders SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending' RETURNING id";
constexpr const char* kOrderColumns =
    "SELECT CAST(o.id AS TEXT) AS id, o.order_number, o.status, o.total_amount, o.currency, o.customer_email, "
    "CAST(o.created_at AS TEXT) AS created_at, i.product_name, i.quantity, i.unit_amount "
    "FROM orders o LEFT JOIN order_items i ON i.order_id = o.id ";
const std::string kFindOrder = std::string(kOrderColumns) + "WHERE o.id = ? ORDER BY i.product_name";
const std::string kOrdersForUser = std::string(kOrderColumns) +
                             "WHERE o.user_id = ? "
                             // A checkout that was never paid (still open, abandoned, expired) is not an order yet.
                             "AND NOT EXISTS (SELECT 1 FROM checkout_sessions c WHERE c.order_id = o.id AND c.status <> 'completed') "
                             "ORDER BY o.created_at DESC, o.id, i.product_name";

struct JoinedRow {
    OrderSummary order;
    std::optional<OrderLine> line;
};

JoinedRow readJoined(const db::Row& r) {
    JoinedRow j;
    j.order.id = r.text("id");
    j.order.orderNumber = r.text("order_number");
    j.order.status = r.text("status");
    j.order.totalAmount = r.int64("total_amount");
    j.order.currency = r.text("currency");
    j.order.customerEmail = r.optText("customer_email");
    j.order.createdAt = r.timestamp("created_at");
    if (auto name = r.optText("product_name")) j.line = OrderLine{*name, r.int64("quantity"), r.int64("unit_amount")};
    return j;
}

// Folds order-and-line rows (ordered by order) into orders with their lines.
std::vector<OrderSummary> fold(std::vector<JoinedRow> rows) {
    std::vector<OrderSummary> out;
    for (auto& row : rows) {
        if (out.empty() || out.back().id != row.order.id) out.push_back(std::move(row.order));
        if (row.line) out.back().lines.push_back(std::move(*row.line));
    }
    return out;
}

} // namespace

std::optional<std::string> OrderRepository::insert(db::Tx& tx, const NewOrder& o) {
    for (int attempt = 0; attempt < kOrderNumberAttempts; ++attempt) {
        const auto id = db::newId();
        const auto at = db::nowTimestamp();
        if (tx.query(kInsertOrder)
                .bind(id, newOrderNumber(), o.userId, o.status, o.totalAmount, o.currency, o.customerEmail)
                .bind(o.providerCheckoutId, at, at)
                .changed() > 0)
            return id;
        if (o.providerCheckoutId && tx.query(kGuestOrderExists).bind(*o.providerCheckoutId).exists()) return std::nullopt;
    }
    throw std::runtime_error("could not allocate an order number");
}

void OrderRepository::insertItem(db::Tx& tx, const std::string& orderId, const NewOrderItem& item) {
    tx.query(kInsertItem)
        .bind(db::newId(), orderId, item.productId, item.planId, item.productName, item.quantity, item.unitAmount)
        .run();
}

bool OrderRepository::markPaid(db::Tx& tx, const std::string& orderId) {
    return tx.query(kMarkPaid).bind(db::nowTimestamp(), orderId).changed() > 0;
}

bool OrderRepository::cancelPending(db::Tx& tx, const std::string& orderId) {
    return tx.query(kCancelPending).bind(db::nowTimestamp(), orderId).changed() > 0;
}

std::optional<OrderSummary> OrderRepository::find(db::Tx& tx, const std::string& orderId) {
    auto orders = fold(tx.query(kFindOrder).bind(orderId).all(readJoined));
    if (orders.empty()) return std::nullopt;
    return std::move(orders.front());
}

std::vector<OrderSummary> OrderRepository::forUser(Poco::Data::Session& s, const std::string& userId) {
    return fold(db::query(s, kOrdersForUser).bind(userId).all(readJoined));
}

} // namespace storefront::billing

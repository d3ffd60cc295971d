#include "billing/orders/order_repository.h"

#include "billing/orders/rules.h"
#include "billing/orders/shippable.h"
#include "db/dialect.h"
#include "db/list.h"

#include <Poco/String.h>

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
// A touch that takes the row's lock (PostgreSQL) inside the writer's transaction (SQLite), so the
// status read here is the one the change applies to.
constexpr const char* kLock =
    "UPDATE orders SET updated_at = updated_at WHERE id = ? "
    "RETURNING status, status_source, paid_after_cancellation, total_amount, currency, CAST(user_id AS TEXT) AS user_id";
// A compare-and-set: only from the status the caller decided from.
constexpr const char* kSetStatus =
    "UPDATE orders SET status = ?, status_source = ?, paid_after_cancellation = ?, updated_at = ? WHERE id = ? AND status = ?";
constexpr const char* kAddHistory =
    "INSERT INTO order_status_history (id, order_id, seq, at, from_status, to_status, source, actor_id, actor_email, note) "
    "VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM order_status_history WHERE order_id = ?), ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kAddLatePayment =
    "INSERT INTO order_late_payments (id, order_id, at, amount, currency, provider, provider_reference, event_id, reason) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, provider, provider_reference) DO NOTHING RETURNING id";
// What went back of a late payment: its refunds that count (requested, pending, succeeded).
#define STOREFRONT_LATE_PAYMENT_RETURNED                                                                               \
    "CAST(COALESCE((SELECT SUM(r.amount) FROM order_refunds r WHERE r.late_payment_id = p.id AND r.status IN "         \
    "('requested', 'pending', 'succeeded')), 0) AS BIGINT)"
constexpr const char* kLatePayment =
    "SELECT CAST(p.id AS TEXT) AS id, CAST(p.order_id AS TEXT) AS order_id, p.amount, p.currency, p.provider, "
    "p.provider_reference, p.reason, " STOREFRONT_LATE_PAYMENT_RETURNED " AS returned FROM order_late_payments p "
    "WHERE p.order_id = ? AND p.id = ?";
constexpr const char* kIsReturnablePayment =
    "SELECT 1 FROM order_late_payments WHERE provider = ? AND provider_reference = ? AND reason = 'already_paid'";
constexpr const char* kSetPaymentToReturn =
    "UPDATE orders SET payment_to_return = (SELECT COUNT(*) > 0 FROM order_late_payments p WHERE p.order_id = orders.id AND "
    "p.reason = 'already_paid' AND p.amount > " STOREFRONT_LATE_PAYMENT_RETURNED "), updated_at = ? WHERE id = ?";
constexpr const char* kPaidByProvider =
    "SELECT 1 FROM order_status_history WHERE order_id = ? AND to_status = 'paid' AND source = 'provider'";

// ---- staff reads ----
// The shipping snapshot and tracking (migration 0015), read by readFulfilment.
#define FULFILMENT_COLUMNS                                                                                              \
    "o.shipping_name, o.shipping_line1, o.shipping_line2, o.shipping_city, o.shipping_state, o.shipping_postal_code, "  \
    "o.shipping_country, o.shipping_phone, o.carrier, o.tracking_number, CAST(o.shipped_at AS TEXT) AS shipped_at "
constexpr const char* kSetShippingAddress =
    "UPDATE orders SET shipping_name = ?, shipping_line1 = ?, shipping_line2 = ?, shipping_city = ?, shipping_state = ?, "
    "shipping_postal_code = ?, shipping_country = ?, shipping_phone = ?, updated_at = ? "
    "WHERE id = ? AND shipping_line1 IS NULL";
constexpr const char* kReplaceShippingAddress =
    "UPDATE orders SET shipping_name = ?, shipping_line1 = ?, shipping_line2 = ?, shipping_city = ?, shipping_state = ?, "
    "shipping_postal_code = ?, shipping_country = ?, shipping_phone = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetTracking =
    "UPDATE orders SET carrier = ?, tracking_number = ?, shipped_at = COALESCE(shipped_at, ?), updated_at = ? WHERE id = ?";
// Whether the order can ship, as a column of the row.
#define HAS_PHYSICAL "(CASE WHEN " STOREFRONT_ORDER_CAN_SHIP " THEN 1 ELSE 0 END) AS has_physical"
constexpr const char* kFacts = "SELECT o.paid_after_cancellation, " HAS_PHYSICAL " FROM orders o WHERE o.id = ?";
constexpr const char* kAdminColumns =
    "SELECT CAST(o.id AS TEXT) AS id, o.order_number, CAST(o.user_id AS TEXT) AS user_id, o.customer_email, o.status, "
    "o.total_amount, o.currency, CAST(o.created_at AS TEXT) AS created_at, CAST(o.updated_at AS TEXT) AS updated_at, "
    "o.paid_after_cancellation, o.refunded_amount, o.disputed, o.amount_mismatch, o.payment_to_return, o.payment_provider, "
    "(CASE WHEN o.provider_payment_id IS NULL THEN 0 ELSE 1 END) AS provider_paid, " HAS_PHYSICAL ", " FULFILMENT_COLUMNS
    "FROM orders o";
constexpr const char* kAdminCount = "SELECT COUNT(*) FROM orders o";
constexpr const char* kAdminWhereStatus = "o.status = ?";
constexpr const char* kAdminWherePaidAfterCancellation = "o.paid_after_cancellation = TRUE";
// orders_disputed_created_at_idx serves it.
constexpr const char* kAdminWhereDisputed = "o.disputed = TRUE";
// orders_amount_mismatch_created_at_idx serves it (migration 0026).
constexpr const char* kAdminWhereAmountMismatch = "o.amount_mismatch = TRUE";
// orders_payment_to_return_created_at_idx serves it (migration 0029).
constexpr const char* kAdminWherePaymentToReturn = "o.payment_to_return = TRUE";
constexpr const char* kAdminWhereToShip = STOREFRONT_ORDER_AWAITING_SHIPMENT;
constexpr const char* kFlagAmountMismatch =
    "UPDATE orders SET amount_mismatch = TRUE, updated_at = ? WHERE id = ? AND amount_mismatch = FALSE";
// Search, in this order: an exact order number (unique index), an exact email when the term has
// an '@' (orders_customer_email_idx), else part of an email: the trigram index of migration 0011
// (orders_search on SQLite, exactly the rows of the LIKE; the LIKE itself uses
// orders_customer_email_trgm_idx on PostgreSQL), a scan for one or two characters.
constexpr const char* kOrderNumberExists = "SELECT 1 FROM orders WHERE order_number = ?";
constexpr const char* kAdminWhereNumber = "o.order_number = ?";
constexpr const char* kAdminWhereEmail = "LOWER(o.customer_email) = ?";
constexpr const char* kAdminWhereEmailPart = "LOWER(o.customer_email) LIKE ? ESCAPE '\\'";
constexpr const char* kAdminWhereEmailPartIndexed = "o.rowid IN (SELECT rowid FROM orders_search WHERE orders_search MATCH ?)";
// orders_created_at_id_idx (and orders_status_created_at_idx with a status) serve this order.
constexpr const char* kAdminNewestFirst = "o.created_at DESC, o.id DESC";
// For part of an email: sorting the few matches beats walking the time index and looking up
// every row. The expression keeps the planner off that index on both engines.
constexpr const char* kAdminNewestFirstAfterScan =
    "COALESCE(o.created_at, o.created_at) DESC, o.id DESC";
const std::string kAdminFind = std::string(kAdminColumns) + " WHERE o.id = ?";
constexpr const char* kAdminItems =
    "SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, product_name, quantity, unit_amount, "
    "restocked_quantity FROM order_items WHERE order_id = ? ORDER BY product_name, id";
constexpr const char* kAdminHistory =
    "SELECT CAST(at AS TEXT) AS at, from_status, to_status, source, actor_email, note FROM order_status_history "
    "WHERE order_id = ? ORDER BY seq";
constexpr const char* kAdminLatePayments =
    "SELECT CAST(p.at AS TEXT) AS at, p.amount, p.currency, p.provider, p.provider_reference, CAST(p.id AS TEXT) AS id, "
    "p.reason, " STOREFRONT_LATE_PAYMENT_RETURNED " AS returned FROM order_late_payments p WHERE p.order_id = ? "
    "ORDER BY p.at, p.id";
constexpr const char* kAdminInvoices =
    "SELECT number, kind, total_amount FROM tax_invoices WHERE order_id = ? ORDER BY seq";
#define ORDER_COLUMNS                                                                                                    \
    "SELECT CAST(o.id AS TEXT) AS id, o.order_number, o.status, o.total_amount, o.currency, o.customer_email, "         \
    "CAST(o.created_at AS TEXT) AS created_at, o.refunded_amount, i.product_name, i.quantity, i.unit_amount, "         \
    "(SELECT t.number FROM tax_invoices t WHERE t.order_id = o.id AND t.kind = 'invoice') AS invoice_number, "        \
    FULFILMENT_COLUMNS
#define ORDER_FROM "FROM orders o LEFT JOIN order_items i ON i.order_id = o.id "
constexpr const char* kOrderColumns = ORDER_COLUMNS ORDER_FROM;
const std::string kFindOrder = std::string(kOrderColumns) + "WHERE o.id = ? ORDER BY i.product_name";
// The user's orders, every one: unpaid (pending) ones and those whose checkout expired or was
// given up included, as staff see them. orders_user_id_created_at_idx serves both.
constexpr const char* kUserOrdersFrom = "FROM orders u WHERE u.user_id = ?";
const std::string kCountOrdersForUser = std::string("SELECT COUNT(*) ") + kUserOrdersFrom;
// A page of them (newest first) with their lines and their checkout (one per order; none for a
// payment link's): the page is chosen by order, then joined, so a long history is never read (or
// held in memory) whole. checkout_sessions_order_id_idx serves the checkout's join.
#define USER_ORDER_COLUMNS                                                                                               \
    ORDER_COLUMNS ", c.status AS checkout_status, c.url AS checkout_url, "                                             \
                  "CAST(c.expires_at AS TEXT) AS checkout_expires_at, CAST(c.updated_at AS TEXT) AS checkout_updated_at " \
                  ORDER_FROM "LEFT JOIN checkout_sessions c ON c.order_id = o.id "
constexpr const char* kOrderForUser = USER_ORDER_COLUMNS "WHERE o.id = ? AND o.user_id = ? ORDER BY i.product_name";
const std::string kOrdersForUser =
    std::string(USER_ORDER_COLUMNS) +
    "WHERE o.id IN (SELECT u.id " + kUserOrdersFrom + " ORDER BY u.created_at DESC, u.id LIMIT ? OFFSET ?) "
    "ORDER BY o.created_at DESC, o.id, i.product_name";

Fulfilment readFulfilment(const db::Row& r) {
    Fulfilment f;
    if (auto line1 = r.optText("shipping_line1")) {
        ShippingAddress a;
        a.name = r.optText("shipping_name").value_or("");
        a.line1 = *line1;
        a.line2 = r.optText("shipping_line2");
        a.city = r.optText("shipping_city").value_or("");
        a.state = r.optText("shipping_state");
        a.postalCode = r.optText("shipping_postal_code").value_or("");
        a.country = r.optText("shipping_country").value_or("");
        a.phone = r.optText("shipping_phone");
        f.address = std::move(a);
    }
    f.carrier = r.optText("carrier");
    f.trackingNumber = r.optText("tracking_number");
    if (r.optText("shipped_at")) f.shippedAt = r.timestamp("shipped_at");
    return f;
}

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
    j.order.refundedAmount = r.int64("refunded_amount");
    j.order.createdAt = r.timestamp("created_at");
    j.order.invoiceNumber = r.optText("invoice_number");
    j.order.fulfilment = readFulfilment(r);
    if (auto name = r.optText("product_name")) j.line = OrderLine{*name, r.int64("quantity"), r.int64("unit_amount")};
    return j;
}

// A user's order row with its checkout (kOrdersForUser, kOrderForUser).
JoinedRow readWithCheckout(const db::Row& r) {
    auto joined = readJoined(r);
    if (auto status = r.optText("checkout_status"))
        joined.order.checkout = OrderCheckout{*status, r.optText("checkout_url"), r.timestamp("checkout_expires_at"),
                                              r.timestamp("checkout_updated_at")};
    return joined;
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

AdminOrder readAdmin(const db::Row& r) {
    AdminOrder o;
    o.id = r.text("id");
    o.orderNumber = r.text("order_number");
    o.userId = r.optText("user_id");
    o.customerEmail = r.optText("customer_email");
    o.status = r.text("status");
    o.totalAmount = r.int64("total_amount");
    o.currency = r.text("currency");
    o.createdAt = r.timestamp("created_at");
    o.updatedAt = r.timestamp("updated_at");
    o.paidAfterCancellation = r.boolean("paid_after_cancellation");
    o.hasPhysical = r.boolean("has_physical");
    o.paymentProvider = r.optText("payment_provider");
    o.providerPaid = r.boolean("provider_paid");
    o.refundedAmount = r.int64("refunded_amount");
    o.disputed = r.boolean("disputed");
    o.amountMismatch = r.boolean("amount_mismatch");
    o.paymentToReturn = r.boolean("payment_to_return");
    o.fulfilment = readFulfilment(r);
    return o;
}

template <class Run>
std::optional<AdminOrderDetail> detail(Run&& run, const std::string& orderId) {
    auto order = run(kAdminFind).bind(orderId).one(readAdmin);
    if (!order) return std::nullopt;
    AdminOrderDetail d;
    d.order = std::move(*order);
    d.items = run(kAdminItems).bind(orderId).all([](const db::Row& r) {
        return AdminOrderItem{r.text("id"),           r.optText("product_id"),          r.text("product_name"),
                              r.int64("quantity"),    r.int64("unit_amount"),           0,
                              r.int64("restocked_quantity")};
    });
    d.history = run(kAdminHistory).bind(orderId).all([](const db::Row& r) {
        return AdminHistoryEntry{r.timestamp("at"), r.text("to_status"), r.text("source"), r.optText("from_status"),
                                 r.optText("actor_email"), r.optText("note")};
    });
    d.latePayments = run(kAdminLatePayments).bind(orderId).all([](const db::Row& r) {
        return AdminLatePayment{r.timestamp("at"), r.text("currency"), r.text("provider"), r.int64("amount"),
                                r.optText("provider_reference"), r.text("id"), r.text("reason"), r.int64("returned")};
    });
    d.invoices = run(kAdminInvoices).bind(orderId).all([](const db::Row& r) {
        return AdminInvoiceRef{r.text("number"), r.text("kind"), r.int64("total_amount")};
    });
    return d;
}

} // namespace

std::optional<std::string> OrderRepository::insert(db::Tx& tx, const NewOrder& o) {
    for (int attempt = 0; attempt < kOrderNumberAttempts; ++attempt) {
        const auto id = db::newId();
        const auto at = tx.clock().nowTimestamp();
        if (tx.query(kInsertOrder)
                .bind(id, newOrderNumber(), o.userId, o.status, o.totalAmount, o.currency, o.customerEmail)
                .bind(o.providerCheckoutId, at, at)
                .changed() > 0) {
            addHistory(tx, {id, std::nullopt, o.status, o.source, std::nullopt, std::nullopt,
                            o.source == source::kProvider ? std::optional<std::string>("Paid through a payment link")
                                                          : std::optional<std::string>("Checkout started")});
            return id;
        }
        if (o.providerCheckoutId && tx.query(kGuestOrderExists).bind(*o.providerCheckoutId).exists()) return std::nullopt;
    }
    throw std::runtime_error("could not allocate an order number");
}

void OrderRepository::insertItem(db::Tx& tx, const std::string& orderId, const NewOrderItem& item) {
    tx.query(kInsertItem)
        .bind(db::newId(), orderId, item.productId, item.planId, item.productName, item.quantity, item.unitAmount)
        .run();
}

std::optional<OrderState> OrderRepository::lock(db::Tx& tx, const std::string& orderId) {
    return tx.query(kLock).bind(orderId).one([](const db::Row& r) {
        return OrderState{r.text("status"), r.optText("status_source"), r.boolean("paid_after_cancellation"),
                          r.int64("total_amount"), r.text("currency"), r.optText("user_id")};
    });
}

OrderFacts OrderRepository::facts(db::Tx& tx, const std::string& orderId) {
    return tx.query(kFacts).bind(orderId).one([](const db::Row& r) {
        return OrderFacts{r.boolean("has_physical"), r.boolean("paid_after_cancellation")};
    }).value_or(OrderFacts{});
}

bool OrderRepository::setStatus(db::Tx& tx, const std::string& orderId, const std::string& from, const std::string& status,
                                const std::string& source, bool paidAfterCancellation) {
    return tx.query(kSetStatus).bind(status, source, paidAfterCancellation, tx.clock().nowTimestamp(), orderId, from).changed() == 1;
}

void OrderRepository::addHistory(db::Tx& tx, const StatusChange& c) {
    tx.query(kAddHistory)
        .bind(db::newId(), c.orderId, c.orderId, tx.clock().nowTimestamp(), c.from, c.to, c.source, c.actorId, c.actorEmail, c.note)
        .run();
}

bool OrderRepository::paidByProvider(db::Tx& tx, const std::string& orderId) {
    return tx.query(kPaidByProvider).bind(orderId).exists();
}

bool OrderRepository::flagAmountMismatch(db::Tx& tx, const std::string& orderId) {
    return tx.query(kFlagAmountMismatch).bind(tx.clock().nowTimestamp(), orderId).changed() > 0;
}

bool OrderRepository::addLatePayment(db::Tx& tx, const LatePayment& p) {
    return tx.query(kAddLatePayment)
               .bind(db::newId(), p.orderId, tx.clock().nowTimestamp(), p.amount, p.currency, p.provider, p.providerReference,
                     p.eventId, p.reason)
               .changed() > 0;
}

std::optional<LatePaymentRow> OrderRepository::latePayment(db::Tx& tx, const std::string& orderId, const std::string& id) {
    return tx.query(kLatePayment).bind(orderId, id).one([](const db::Row& r) {
        return LatePaymentRow{r.text("id"),       r.text("order_id"),           r.text("currency"), r.text("provider"),
                              r.text("provider_reference"), r.text("reason"), r.int64("amount"),  r.int64("returned")};
    });
}

bool OrderRepository::isReturnablePayment(db::Tx& tx, const std::string& provider, const std::string& reference) {
    return tx.query(kIsReturnablePayment).bind(provider, reference).exists();
}

void OrderRepository::updatePaymentToReturn(db::Tx& tx, const std::string& orderId) {
    tx.query(kSetPaymentToReturn).bind(tx.clock().nowTimestamp(), orderId).run();
}

bool OrderRepository::setShippingAddress(db::Tx& tx, const std::string& orderId, const ShippingAddress& a) {
    return tx.query(kSetShippingAddress)
               .bind(a.name, a.line1, a.line2, a.city, a.state, a.postalCode, a.country, a.phone)
               .bind(tx.clock().nowTimestamp(), orderId)
               .changed() > 0;
}

void OrderRepository::replaceShippingAddress(db::Tx& tx, const std::string& orderId, const ShippingAddress& a) {
    tx.query(kReplaceShippingAddress)
        .bind(a.name, a.line1, a.line2, a.city, a.state, a.postalCode, a.country, a.phone)
        .bind(tx.clock().nowTimestamp(), orderId)
        .run();
}

void OrderRepository::setTracking(db::Tx& tx, const std::string& orderId, const std::optional<std::string>& carrier,
                                  const std::optional<std::string>& trackingNumber) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kSetTracking).bind(carrier, trackingNumber, at, at, orderId).run();
}

namespace {

// The staff list's WHERE for `filter`; `scan` tells whether the search reads a part of an email.
// The list's and the export's one WHERE. `numberExists` looks a search up as an order number (a
// query of its own: the export runs it on a session it gives back before the download starts).
db::Where adminWhere(db::Where where, bool sqlite, const AdminOrderFilter& filter, bool& scan,
                     const std::function<bool(const std::string&)>& numberExists) {
    if (filter.disputed) where.add(kAdminWhereDisputed, {});
    if (filter.amountMismatch) where.add(kAdminWhereAmountMismatch, {});
    if (filter.paymentToReturn) where.add(kAdminWherePaymentToReturn, {});
    if (filter.toShip) where.add(kAdminWhereToShip, {});
    if (filter.status) {
        if (*filter.status == "paid_after_cancellation") where.add(kAdminWherePaidAfterCancellation, {});
        else where.add(kAdminWhereStatus, {*filter.status});
    }
    scan = false;
    if (filter.q) {
        const auto number = Poco::toUpper(*filter.q);
        if (numberExists(number)) {
            where.add(kAdminWhereNumber, {number});
        } else if (filter.q->find('@') != std::string::npos) {
            where.add(kAdminWhereEmail, {Poco::toLower(*filter.q)});
        } else if (auto phrase = db::trigramPhrase(*filter.q); phrase && sqlite) {
            where.add(kAdminWhereEmailPartIndexed, {*phrase});
            scan = true;
        } else {
            where.add(kAdminWhereEmailPart, {db::likePattern(*filter.q)});
            scan = true;
        }
    }
    return where;
}

} // namespace

db::Page<AdminOrder> OrderRepository::adminList(Poco::Data::Session& s, const AdminOrderFilter& filter, db::PageQuery page) {
    bool scan = false;
    const auto where = adminWhere(db::Where(s), db::isSqlite(s), filter, scan,
                                  [&s](const std::string& n) { return db::query(s, kOrderNumberExists).bind(n).exists(); });
    page.orderBy = scan ? kAdminNewestFirstAfterScan : kAdminNewestFirst;
    return db::countedPageOf<AdminOrder>(s, kAdminColumns, nullptr, kAdminCount, where, page, readAdmin);
}

std::optional<AdminOrderDetail> OrderRepository::adminFind(db::Tx& tx, const std::string& orderId) {
    return detail([&tx](const auto& sql) { return tx.query(sql); }, orderId);
}

std::optional<AdminOrderDetail> OrderRepository::adminFind(Poco::Data::Session& s, const std::string& orderId) {
    return detail([&s](const auto& sql) { return db::query(s, sql); }, orderId);
}

std::optional<OrderSummary> OrderRepository::find(db::Tx& tx, const std::string& orderId) {
    auto orders = fold(tx.query(kFindOrder).bind(orderId).all(readJoined));
    if (orders.empty()) return std::nullopt;
    return std::move(orders.front());
}

std::vector<OrderSummary> OrderRepository::forUser(Poco::Data::Session& s, const std::string& userId, std::int64_t limit,
                                                   std::int64_t offset) {
    return fold(db::query(s, kOrdersForUser).bind(userId, limit, offset).all(readWithCheckout));
}

std::optional<OrderSummary> OrderRepository::findForUser(Poco::Data::Session& s, const std::string& userId,
                                                         const std::string& orderId) {
    auto orders = fold(db::query(s, kOrderForUser).bind(orderId, userId).all(readWithCheckout));
    if (orders.empty()) return std::nullopt;
    return std::move(orders.front());
}

std::int64_t OrderRepository::countForUser(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kCountOrdersForUser).bind(userId).count();
}

std::int64_t OrderRepository::adminExport(db::Database& db, const AdminOrderFilter& filter,
                                         const std::function<void(const AdminOrder&)>& onRow) {
    bool scan = false;
    const auto where = adminWhere(db::Where(db.dialect()), db.dialect() == db::Dialect::SQLite, filter, scan, [&db](const std::string& n) {
        auto s = db.session();
        return db::query(s, kOrderNumberExists).bind(n).exists();
    });
    return db::readAll(db, kAdminColumns, where, {"o.created_at", "o.id", true},
                       [](const db::Row& r) { return readAdmin(r); }, onRow);
}

} // namespace storefront::billing

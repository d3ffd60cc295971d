#include "billing/books/invoice_repository.h"

#include "billing/books/invoice_documents.h"
#include "billing/books/tax_invoice.h"
#include "billing/orders/order_repository.h"
#include "billing/orders/shipping.h"
#include "catalog/money.h"

#include <algorithm>
#include <tuple>

namespace storefront::billing {

namespace {

// The touch takes the counter row's lock (PostgreSQL) inside the writer's transaction (SQLite):
// every issuer queues here, so the check for an existing invoice and the next number are read by
// one issuer at a time, and a rollback gives the number back.
constexpr const char* kLockCounter =
    "UPDATE invoice_counters SET last_number = last_number WHERE name = 'tax_invoice' RETURNING last_number";
constexpr const char* kNextNumber =
    "UPDATE invoice_counters SET last_number = last_number + 1 WHERE name = 'tax_invoice' RETURNING last_number";
constexpr const char* kBySourceKey = "SELECT number FROM tax_invoices WHERE source_key = ?";
constexpr const char* kInsert =
    "INSERT INTO tax_invoices (id, seq, number, kind, source_key, user_id, order_id, adjusts_id, currency, total_amount, "
    "gst_amount, document, issued_at, buyer_name, buyer_email, order_number, zero_rated, subscription_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUnlinked =
    "SELECT document FROM tax_invoices WHERE source_key = ? AND order_id IS NULL AND kind = 'invoice'";
constexpr const char* kOrderNumber = "SELECT order_number FROM orders WHERE id = ?";
constexpr const char* kLinkOrder =
    "UPDATE tax_invoices SET order_id = ?, document = ?, order_number = ? WHERE source_key = ? AND order_id IS NULL "
    "AND kind = 'invoice'";
constexpr const char* kOrder =
    "SELECT o.order_number, CAST(o.user_id AS TEXT) AS user_id, o.customer_email, o.total_amount, o.currency, "
    "u.email AS user_email, p.full_name FROM orders o LEFT JOIN users u ON u.id = o.user_id "
    "LEFT JOIN profiles p ON p.id = o.user_id WHERE o.id = ?";
constexpr const char* kOrderItems =
    "SELECT product_name, quantity, unit_amount FROM order_items WHERE order_id = ? ORDER BY product_name, id";
constexpr const char* kBuyer =
    "SELECT u.email, p.full_name FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = ?";
constexpr const char* kSummaryColumns =
    "SELECT number, kind, CAST(issued_at AS TEXT) AS issued_at, currency, total_amount, gst_amount, "
    "CAST(order_id AS TEXT) AS order_id FROM tax_invoices ";
const std::string kOrderInvoice = std::string(kSummaryColumns) + "WHERE order_id = ? AND kind = 'invoice'";
const std::string kSummaryByNumber = std::string(kSummaryColumns) + "WHERE number = ?";
const std::string kOrderDocuments = std::string(kSummaryColumns) + "WHERE order_id = ? ORDER BY seq";
constexpr const char* kCount = "SELECT COUNT(*) FROM tax_invoices";
constexpr const char* kFind = "SELECT CAST(user_id AS TEXT) AS user_id, document FROM tax_invoices WHERE number = ?";
constexpr const char* kCreditTarget =
    "SELECT CAST(id AS TEXT) AS id, number, CAST(user_id AS TEXT) AS user_id, CAST(subscription_id AS TEXT) AS subscription_id, "
    "total_amount, gst_amount, document FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'";
constexpr const char* kCreditTargetByKey =
    "SELECT CAST(id AS TEXT) AS id, number, CAST(user_id AS TEXT) AS user_id, CAST(subscription_id AS TEXT) AS subscription_id, "
    "total_amount, gst_amount, document FROM tax_invoices WHERE source_key = ? AND kind = 'invoice'";
// What the invoice's notes credit now: credit notes less the debit notes that reversed some.
constexpr const char* kCredited =
    "SELECT CAST(COALESCE(SUM(CASE WHEN kind = 'credit_note' THEN total_amount ELSE -total_amount END), 0) AS BIGINT) AS total, "
    "CAST(COALESCE(SUM(CASE WHEN kind = 'credit_note' THEN gst_amount ELSE -gst_amount END), 0) AS BIGINT) AS gst "
    "FROM tax_invoices WHERE adjusts_id = ? AND kind IN ('credit_note', 'debit_note')";
constexpr const char* kNoteOfKey =
    "SELECT number, CAST(user_id AS TEXT) AS user_id, CAST(order_id AS TEXT) AS order_id, CAST(adjusts_id AS TEXT) AS adjusts_id, "
    "total_amount, gst_amount, document FROM tax_invoices WHERE source_key = ? AND kind = 'credit_note'";

InvoiceSummary readSummary(const db::Row& r) {
    InvoiceSummary s;
    s.number = r.text("number");
    s.kind = r.text("kind");
    s.issuedAt = r.timestamp("issued_at");
    s.currency = r.text("currency");
    s.totalAmount = r.int64("total_amount");
    s.gstAmount = r.int64("gst_amount");
    s.orderId = r.optText("order_id");
    return s;
}

nlohmann::json orNull(const std::optional<std::string>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

void lockCounter(db::Tx& tx) { tx.query(kLockCounter).run(); }

} // namespace

std::string invoiceMailText(const InvoiceSummary& invoice, const std::string& publicUrl) {
    std::string text = "Tax invoice " + invoice.number + ": " + publicUrl + "/account/invoices/" + invoice.number + "\n";
    if (invoice.gstAmount == 0 && invoice.totalAmount > 0)
        text += "GST: " + catalog::formatMoney(0, invoice.currency) + " (zero-rated export)\n";
    else text += "GST content: " + catalog::formatMoney(invoice.gstAmount, invoice.currency) + " " + invoice.currency + "\n";
    return text;
}

bool InvoiceRepository::zeroRated(const std::string& currency) const {
    const auto& list = settings_.zeroRatedCurrencies;
    return std::find(list.begin(), list.end(), currency) != list.end();
}

std::string InvoiceRepository::store(db::Tx& tx, const std::string& sourceKey, const std::string& kind,
                                     nlohmann::json document, const std::optional<std::string>& userId,
                                     const std::optional<std::string>& orderId, const std::optional<std::string>& adjustsId,
                                     const std::optional<std::string>& subscriptionId) {
    const std::int64_t seq = tx.query(kNextNumber).count();
    const std::string number = invoiceNumber(settings_.prefix, seq);
    const std::string issuedAt = tx.clock().nowTimestamp();
    document["number"] = number;
    document["kind"] = kind;
    document["issued_at"] = issuedAt;
    document["issue_date"] = nzDate(issuedAt); // New Zealand's calendar day
    document["supplier"] = {{"legal_name", settings_.legalName},
                            {"address", settings_.address},
                            {"gst_number", settings_.gstNumber}};
    // The register's columns (buyer, order number, zero rating) are the document's, as issued.
    const auto& buyer = document.contains("buyer") && document["buyer"].is_object() ? document["buyer"] : nlohmann::json::object();
    const auto textOf = [](const nlohmann::json& j, const char* key) -> std::optional<std::string> {
        return j.contains(key) && j[key].is_string() ? std::optional<std::string>(j[key].get<std::string>()) : std::nullopt;
    };
    tx.query(kInsert)
        .bind(db::newId(), seq, number, kind, sourceKey, userId, orderId, adjustsId)
        .bind(document["currency"].get<std::string>(), document["total_amount"].get<std::int64_t>(),
              document["gst_amount"].get<std::int64_t>(), document.dump(), issuedAt)
        .bind(textOf(buyer, "name"), textOf(buyer, "email"), textOf(document, "order_number"),
              document.value("zero_rated", false), subscriptionId)
        .run();
    return number;
}

std::string InvoiceRepository::issue(db::Tx& tx, const NewInvoice& n, bool* issued) {
    lockCounter(tx);
    if (issued) *issued = false;
    if (auto existing = tx.query(kBySourceKey).bind(n.sourceKey).text()) return *existing;
    if (issued) *issued = true;
    return store(tx, n.sourceKey, "invoice", invoiceDocument(n, zeroRated(n.currency)), n.userId, n.orderId, std::nullopt,
                 n.subscriptionId);
}

std::optional<std::string> InvoiceRepository::issueForOrder(db::Tx& tx, const std::string& orderId,
                                                            const std::optional<std::string>& sourceKey) {
    auto invoice = tx.query(kOrder).bind(orderId).one([&](const db::Row& r) {
        NewInvoice n;
        n.sourceKey = sourceKey.value_or("order:" + orderId);
        n.orderId = orderId;
        n.orderNumber = r.text("order_number");
        n.userId = r.optText("user_id");
        n.buyerName = r.optText("full_name");
        n.buyerEmail = r.optText("customer_email");
        if (!n.buyerEmail) n.buyerEmail = r.optText("user_email");
        n.currency = r.text("currency");
        n.totalAmount = r.int64("total_amount");
        return n;
    });
    if (!invoice) return std::nullopt;
    // The buyer's address on the invoice is where the goods went (the order's snapshot).
    if (auto order = OrderRepository().find(tx, orderId); order && order->fulfilment.address)
        invoice->buyerAddress = toJson(order->fulfilment.address);
    invoice->lines = tx.query(kOrderItems).bind(orderId).all([](const db::Row& r) {
        const auto quantity = r.int64("quantity");
        return InvoiceLine{r.text("product_name"), quantity, quantity * r.int64("unit_amount")};
    });
    return issue(tx, *invoice);
}

void InvoiceRepository::fillBuyer(db::Tx& tx, NewInvoice& invoice) {
    if (!invoice.userId) return;
    tx.query(kBuyer).bind(*invoice.userId).one([&](const db::Row& r) {
        if (auto email = r.optText("email")) invoice.buyerEmail = email;
        if (auto name = r.optText("full_name")) invoice.buyerName = name;
        return 0;
    });
}

namespace {

InvoiceRepository::CreditTarget readCreditTarget(const db::Row& r) {
    return {r.text("id"), r.optText("user_id"), r.optText("subscription_id"),
            NoteTarget{r.text("number"), r.int64("total_amount"), r.int64("gst_amount"), nlohmann::json::parse(r.text("document"))}};
}

} // namespace

std::string InvoiceRepository::issueCreditNote(db::Tx& tx, const std::string& orderId, const std::string& refundId,
                                               std::int64_t amount, const std::string& reason,
                                               const std::vector<CreditedLine>& lines) {
    lockCounter(tx); // before the checks: a concurrent refund of the same order sees this one's note
    const std::string key = "refund:" + refundId;
    if (auto existing = tx.query(kBySourceKey).bind(key).text()) return *existing;
    auto row = tx.query(kCreditTarget).bind(orderId).one(readCreditTarget);
    if (!row) throw CreditNoteRefused("The order has no tax invoice to adjust.");
    return creditNoteFor(tx, row, key, orderId, amount, reason, lines);
}

std::string InvoiceRepository::issueSubscriptionCreditNote(db::Tx& tx, const std::string& invoiceSourceKey,
                                                           const std::string& refundId, std::int64_t amount,
                                                           const std::string& reason) {
    lockCounter(tx);
    const std::string key = "refund:" + refundId; // one key scheme for every refund: a debit note finds it
    if (auto existing = tx.query(kBySourceKey).bind(key).text()) return *existing;
    auto row = tx.query(kCreditTargetByKey).bind(invoiceSourceKey).one(readCreditTarget);
    if (!row) throw CreditNoteRefused("The payment has no tax invoice to adjust.");
    return creditNoteFor(tx, row, key, std::nullopt, amount, reason, {});
}

std::string InvoiceRepository::creditNoteFor(db::Tx& tx, std::optional<CreditTarget> row, const std::string& key,
                                             const std::optional<std::string>& orderId, std::int64_t amount,
                                             const std::string& reason, const std::vector<CreditedLine>& lines) {
    std::tie(row->target.credited, row->target.gstCredited) = *tx.query(kCredited).bind(row->id).one([](const db::Row& r) {
        return std::pair<std::int64_t, std::int64_t>(r.int64("total"), r.int64("gst"));
    });
    return store(tx, key, "credit_note", creditNoteDocument(row->target, orderId, amount, reason, lines), row->userId, orderId,
                 row->id, row->subscriptionId);
}

std::optional<std::string> InvoiceRepository::issueDebitNote(db::Tx& tx, const std::string& refundId, const std::string& reason) {
    lockCounter(tx);
    const std::string key = "refund-reversal:" + refundId;
    if (auto existing = tx.query(kBySourceKey).bind(key).text()) return existing;
    struct Note {
        std::string number;
        std::optional<std::string> userId, orderId, adjustsId;
        nlohmann::json document;
    };
    auto note = tx.query(kNoteOfKey).bind("refund:" + refundId).one([](const db::Row& r) {
        return Note{r.text("number"), r.optText("user_id"), r.optText("order_id"), r.optText("adjusts_id"),
                    nlohmann::json::parse(r.text("document"))};
    });
    if (!note) return std::nullopt;
    auto document = debitNoteDocument(note->document, note->number, reason);
    // `adjusts` stays the invoice the credit note adjusted: the debit note puts back what it took off.
    return store(tx, key, "debit_note", std::move(document), note->userId, note->orderId, note->adjustsId);
}

void InvoiceRepository::linkOrder(db::Tx& tx, const std::string& sourceKey, const std::string& orderId) {
    auto text = tx.query(kUnlinked).bind(sourceKey).text();
    if (!text) return;
    // The invoice's content stays as issued; it gains the reference to the order it paid for.
    auto document = nlohmann::json::parse(*text);
    document["order_id"] = orderId;
    const auto orderNumber = tx.query(kOrderNumber).bind(orderId).text();
    document["order_number"] = orNull(orderNumber);
    tx.query(kLinkOrder).bind(orderId, document.dump(), orderNumber, sourceKey).run();
}

std::optional<InvoiceSummary> InvoiceRepository::summary(db::Tx& tx, const std::string& number) {
    return tx.query(kSummaryByNumber).bind(number).one(readSummary);
}

std::optional<InvoiceSummary> InvoiceRepository::forOrder(db::Tx& tx, const std::string& orderId) {
    return tx.query(kOrderInvoice).bind(orderId).one(readSummary);
}

std::vector<InvoiceSummary> InvoiceRepository::forOrder(Poco::Data::Session& s, const std::string& orderId) {
    return db::query(s, kOrderDocuments).bind(orderId).all(readSummary);
}

std::optional<StoredInvoice> InvoiceRepository::find(Poco::Data::Session& s, const std::string& number) {
    return db::query(s, kFind).bind(number).one([](const db::Row& r) {
        return StoredInvoice{r.optText("user_id"), nlohmann::json::parse(r.text("document"))};
    });
}

db::Page<InvoiceSummary> InvoiceRepository::pageForUser(Poco::Data::Session& s, const std::string& userId, db::PageQuery page) {
    db::Where where(s);
    where.add("user_id = ?", {userId});
    page.orderBy = "seq DESC";
    return db::countedPageOf<InvoiceSummary>(s, kSummaryColumns, nullptr, kCount, where, page, readSummary);
}

} // namespace storefront::billing

#include "billing/books/register_repository.h"

#include "db/search.h"

#include <Poco/String.h>

namespace storefront::billing {

namespace {

// A subscription's invoice names its subscription (tax_invoices.subscription_id, migration 0024).
constexpr const char* kRegisterSelect =
    "SELECT t.number, t.kind, CAST(t.issued_at AS TEXT) AS issued_at, t.currency, t.total_amount, t.gst_amount, "
    "t.buyer_name, t.buyer_email, CAST(t.order_id AS TEXT) AS order_id, t.order_number, t.zero_rated, "
    "a.number AS adjusts_number, CAST(t.subscription_id AS TEXT) AS subscription_id "
    "FROM tax_invoices t LEFT JOIN tax_invoices a ON a.id = t.adjusts_id";
constexpr const char* kRegisterCount = "SELECT COUNT(*) FROM tax_invoices t";
// tax_invoices_seq_key (and tax_invoices_kind_seq_idx with a kind) serve the order.
constexpr const char* kRegisterNewestFirst = "t.seq DESC";
// The period's sums by currency and kind; tax_invoices_issued_at_idx serves the range.
constexpr const char* kRegisterGst =
    "SELECT t.currency, t.kind, CAST(COUNT(*) AS BIGINT) AS n, CAST(SUM(t.total_amount) AS BIGINT) AS total, "
    "CAST(SUM(t.gst_amount) AS BIGINT) AS gst, "
    "CAST(SUM(CASE WHEN t.zero_rated THEN t.total_amount ELSE 0 END) AS BIGINT) AS zero_rated "
    "FROM tax_invoices t WHERE t.issued_at >= ? AND t.issued_at < ? GROUP BY t.currency, t.kind ORDER BY t.currency, t.kind";

RegisterEntry readRegisterEntry(const db::Row& r) {
    RegisterEntry e;
    e.number = r.text("number");
    e.kind = r.text("kind");
    e.issuedAt = r.timestamp("issued_at");
    e.currency = r.text("currency");
    e.totalAmount = r.int64("total_amount");
    e.gstAmount = r.int64("gst_amount");
    e.buyerName = r.optText("buyer_name");
    e.buyerEmail = r.optText("buyer_email");
    e.orderId = r.optText("order_id");
    e.orderNumber = r.optText("order_number");
    e.zeroRated = r.boolean("zero_rated");
    e.adjustsNumber = r.optText("adjusts_number");
    e.subscriptionId = r.optText("subscription_id");
    return e;
}

void addRegisterFilter(db::Where& where, const RegisterFilter& f) {
    if (f.kind) where.add("t.kind = ?", {*f.kind});
    if (f.issuedFrom) where.add("t.issued_at >= ?", {*f.issuedFrom});
    if (f.issuedBefore) where.add("t.issued_at < ?", {*f.issuedBefore});
    if (f.q) {
        // An exact document or order number, else part of the buyer's name or email.
        const auto term = Poco::toLower(*f.q);
        const auto like = db::likePattern(*f.q);
        where.add("(LOWER(t.number) = ? OR LOWER(t.order_number) = ? OR LOWER(t.buyer_email) LIKE ? ESCAPE '\\' "
                  "OR LOWER(t.buyer_name) LIKE ? ESCAPE '\\')",
                  {term, term, like, like});
    }
}

} // namespace

db::Page<RegisterEntry> RegisterRepository::page(Poco::Data::Session& s, const RegisterFilter& filter, db::PageQuery page) {
    db::Where where(s);
    addRegisterFilter(where, filter);
    page.orderBy = kRegisterNewestFirst;
    return db::countedPageOf<RegisterEntry>(s, kRegisterSelect, nullptr, kRegisterCount, where, page, readRegisterEntry);
}

std::int64_t RegisterRepository::each(db::Database& db, const RegisterFilter& filter,
                                       const std::function<void(const RegisterEntry&)>& onRow) {
    // No session held while the download waits on the network: readAll takes one per batch.
    db::Where where(db.dialect());
    addRegisterFilter(where, filter);
    return db::readAll(db, kRegisterSelect, where, {"t.seq", "t.id", true}, [](const db::Row& r) { return readRegisterEntry(r); }, onRow);
}

std::vector<GstTotals> RegisterRepository::gst(Poco::Data::Session& s, const std::string& issuedFrom,
                                               const std::string& issuedBefore) {
    std::vector<GstTotals> out;
    db::query(s, kRegisterGst).bind(issuedFrom, issuedBefore).all([&out](const db::Row& r) {
        const auto currency = r.text("currency");
        if (out.empty() || out.back().currency != currency) out.push_back(GstTotals{currency});
        auto& t = out.back();
        const auto kind = r.text("kind");
        const auto n = r.int64("n"), total = r.int64("total"), gst = r.int64("gst"), zero = r.int64("zero_rated");
        if (kind == "credit_note") {
            t.creditedAmount += total;
            t.creditNoteCount += n;
            t.gstAmount -= gst;
            t.zeroRatedAmount -= zero;
        } else {
            // Invoices, and debit notes: each puts back what a credit note had taken off.
            t.invoicedAmount += total;
            t.invoiceCount += kind == "invoice" ? n : 0;
            t.gstAmount += gst;
            t.zeroRatedAmount += zero;
        }
        t.netAmount = t.invoicedAmount - t.creditedAmount;
        return 0;
    });
    return out;
}

} // namespace storefront::billing

#include "billing/invoice_routes.h"

#include "audit/csv_export.h"
#include "billing/books/register_repository.h"
#include "billing/books/tax_invoice.h"
#include "catalog/money.h"
#include "common/nz_time.h"
#include "http/api_error.h"
#include "http/paging.h"

namespace storefront::billing {

namespace {

using http::ApiError;

// Invoice numbers are a prefix (letters, digits, - / _) and digits: anything longer or stranger is
// no invoice of ours.
constexpr std::size_t kMaxNumberChars = 40;

ApiError notFound() { return ApiError::notFound("invoice_not_found", "No such invoice."); }

nlohmann::json summaryJson(const InvoiceSummary& i) {
    return {{"number", i.number},
            {"kind", i.kind},
            {"issued_at", i.issuedAt},
            {"currency", i.currency},
            {"total_amount", i.totalAmount},
            {"gst_amount", i.gstAmount},
            {"order_id", i.orderId ? nlohmann::json(*i.orderId) : nlohmann::json()}};
}

StoredInvoice findOr404(db::Database& db, InvoiceRepository& invoices, const std::string& number) {
    if (number.empty() || number.size() > kMaxNumberChars) throw notFound();
    auto s = db.session();
    auto invoice = invoices.find(s, number);
    if (!invoice) throw notFound();
    return std::move(*invoice);
}

// A New Zealand date of the query (YYYY-MM-DD), as the instant its day begins; `dayAfter` moves
// it to the next day's start (an inclusive end). The field error is the caller's to raise.
std::optional<std::string> dayParam(const http::Request& req, const char* name, bool dayAfter, nlohmann::json& fields) {
    const auto text = http::readFilter(req, name);
    if (!text) return std::nullopt;
    auto day = nz::parseDate(*text);
    if (!day) {
        fields[name] = "Enter a date as YYYY-MM-DD.";
        return std::nullopt;
    }
    const auto start = nz::startOfDay(dayAfter ? date::year_month_day(date::sys_days(*day) + date::days(1)) : *day);
    return formatTimestamp(start);
}

// The register's filter from the query: kind, q, from and to (New Zealand dates, inclusive).
RegisterFilter readRegisterFilter(const http::Request& req) {
    RegisterFilter f;
    f.kind = http::readChoice(req, "kind", {"invoice", "credit_note", "debit_note"});
    f.q = http::readSearch(req);
    nlohmann::json fields = nlohmann::json::object();
    f.issuedFrom = dayParam(req, "from", false, fields);
    f.issuedBefore = dayParam(req, "to", true, fields);
    if (fields.empty() && f.issuedFrom && f.issuedBefore && *f.issuedBefore <= *f.issuedFrom)
        fields["to"] = "The end of the range must not be before its start.";
    if (!fields.empty()) throw ApiError::validation(fields, "Check the dates of the range.");
    return f;
}

nlohmann::json textOrNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

nlohmann::json entryJson(const RegisterEntry& e) {
    return {{"number", e.number},
            {"kind", e.kind},
            {"issued_at", e.issuedAt},
            {"issue_date", nzDate(e.issuedAt)},
            {"buyer_name", textOrNull(e.buyerName)},
            {"buyer_email", textOrNull(e.buyerEmail)},
            {"order_id", textOrNull(e.orderId)},
            {"order_number", textOrNull(e.orderNumber)},
            {"subscription_id", textOrNull(e.subscriptionId)},
            {"currency", e.currency},
            {"total_amount", e.totalAmount},
            {"gst_amount", e.gstAmount},
            {"zero_rated", e.zeroRated},
            {"adjusts_number", textOrNull(e.adjustsNumber)}};
}

const std::vector<std::string> kRegisterColumns = {"number", "kind", "issue_date", "buyer_name", "buyer_email", "order_number",
                                                   "subscription_id", "currency", "total", "gst", "zero_rated", "adjusts"};

void writeEntry(csv::Writer& out, const RegisterEntry& e) {
    out.text(e.number).text(e.kind).text(nzDate(e.issuedAt)).text(e.buyerName).text(e.buyerEmail).text(e.orderNumber);
    out.text(e.subscriptionId).text(e.currency).number(catalog::formatMinorUnits(e.totalAmount));
    out.number(catalog::formatMinorUnits(e.gstAmount)).boolean(e.zeroRated).text(e.adjustsNumber);
    out.endRow();
}

nlohmann::json registerFiltersJson(const http::Request& req) {
    auto json = nlohmann::json::object();
    for (const char* name : {"kind", "q", "from", "to"})
        if (auto v = http::readFilter(req, name)) json[name] = *v;
    return json;
}

} // namespace

void registerInvoiceRoutes(http::Router& router, db::Database& db, InvoiceRepository& invoices) {
    router.get("/api/v1/account/invoices", http::Access::SignedIn, [&db, &invoices](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto& userId = req.caller()->userId;
        auto s = db.session();
        res.json(200, http::pageJson(invoices.pageForUser(s, userId, http::pageQuery(page)), page, summaryJson));
    });

    // The owner, or staff who have passed two-factor (a staff session at aal1 reads only its own).
    router.get("/api/v1/account/invoices/{number}", http::Access::SignedIn, [&db, &invoices](http::Request& req, http::Response& res) {
        auto invoice = findOr404(db, invoices, req.param("number"));
        const auto* caller = req.caller();
        const bool staff = caller->staffAdmin && caller->aal == "aal2";
        if (!staff && invoice.userId != caller->userId) throw notFound(); // not 403: its existence is not told
        res.json(200, invoice.document);
    });

    // The register: every invoice, credit note and debit note, newest number first.
    router.get("/api/v1/admin/invoices", http::Access::StaffAdmin, [&db](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto filter = readRegisterFilter(req);
        auto s = db.session();
        res.json(200, http::pageJson(RegisterRepository().page(s, filter, http::pageQuery(page)), page, entryJson));
    });

    router.get("/api/v1/admin/invoices/export.csv", http::Access::StaffAdmin, [&db](http::Request& req, http::Response& res) {
        const auto filter = readRegisterFilter(req);
        audit::CsvExport what{"invoices", registerFiltersJson(req), kRegisterColumns};
        audit::streamCsv(res, db, audit::actorOf(req), std::move(what), [&db, filter](csv::Writer& out) {
            RegisterRepository().each(db, filter, [&out](const RegisterEntry& e) { writeEntry(out, e); });
        });
    });

    // The GST report: from and to (New Zealand dates, inclusive) both required.
    router.get("/api/v1/admin/reports/gst", http::Access::StaffAdmin, [&db](http::Request& req, http::Response& res) {
        const auto filter = readRegisterFilter(req);
        nlohmann::json fields = nlohmann::json::object();
        if (!filter.issuedFrom) fields["from"] = "Choose the first day of the period (YYYY-MM-DD).";
        if (!filter.issuedBefore) fields["to"] = "Choose the last day of the period (YYYY-MM-DD).";
        if (!fields.empty()) throw ApiError::validation(fields, "Choose the period's first and last days.");
        auto s = db.session();
        nlohmann::json currencies = nlohmann::json::array();
        for (const auto& t : RegisterRepository().gst(s, *filter.issuedFrom, *filter.issuedBefore))
            currencies.push_back({{"currency", t.currency},
                                  {"invoiced_amount", t.invoicedAmount},
                                  {"credited_amount", t.creditedAmount},
                                  {"net_amount", t.netAmount},
                                  {"gst_amount", t.gstAmount},
                                  {"zero_rated_amount", t.zeroRatedAmount},
                                  {"invoice_count", t.invoiceCount},
                                  {"credit_note_count", t.creditNoteCount}});
        res.json(200, {{"from", *http::readFilter(req, "from")}, {"to", *http::readFilter(req, "to")}, {"currencies", currencies}});
    });

    router.get("/api/v1/admin/invoices/{number}", http::Access::StaffAdmin, [&db, &invoices](http::Request& req, http::Response& res) {
        res.json(200, findOr404(db, invoices, req.param("number")).document);
    });
}

} // namespace storefront::billing

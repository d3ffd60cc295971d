#include "billing/invoice_routes.h"

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

    router.get("/api/v1/admin/invoices/{number}", http::Access::StaffAdmin, [&db, &invoices](http::Request& req, http::Response& res) {
        res.json(200, findOr404(db, invoices, req.param("number")).document);
    });
}

} // namespace storefront::billing

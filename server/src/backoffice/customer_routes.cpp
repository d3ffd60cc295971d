#include "backoffice/customer_routes.h"

#include "audit/csv_export.h"
#include "auth/user_repository.h"
#include "backoffice/customer_json.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

namespace storefront::backoffice {

namespace {

std::string customerId(const http::Request& req) { return http::idParam(req, "customer_not_found", "No such customer."); }

// An action without fields still takes only a JSON object (or nothing) as its body.
void noFields(http::Request& req) { http::Body(req).check(); }

// A write answers with the customer as it now is.
void answerCustomer(CustomerRepository& customers, const std::string& id, http::Response& res) {
    auto detail = customers.find(id);
    if (!detail) throw http::ApiError::notFound("customer_not_found", "No such customer.");
    res.json(200, toJson(*detail));
}

// The list's filters as the address carries them (the list and its export read the same words).
CustomerFilter readFilter(const http::Request& req) {
    CustomerFilter filter;
    filter.q = http::readSearch(req);
    filter.admins = http::readChoice(req, "role", {"admin"}).has_value();
    if (auto twoFactor = http::readChoice(req, "two_factor", {"true", "false"})) filter.twoFactor = *twoFactor == "true";
    filter.unconfirmed = http::readChoice(req, "unconfirmed", {"true", "false"}) == std::optional<std::string>("true");
    filter.closed = http::readChoice(req, "closed", {"true", "false"}) == std::optional<std::string>("true");
    return filter;
}

const std::vector<std::string> kExportHeader = {"email", "full_name", "admin", "two_factor", "email_confirmed_at",
                                                "last_sign_in_at", "created_at", "closed_at", "user_id"};

// GET /api/v1/admin/customers/export.csv (docs/backoffice.md, "Exports"): the list's rows with its
// filters, search and sort, streamed; a closed account as "Closed account", with no name.
void registerCustomerExport(http::Router& router, CustomerRepository& customers) {
    router.get("/api/v1/admin/customers/export.csv", http::Access::StaffAdmin, [&customers](http::Request& req, http::Response& res) {
        const auto filter = readFilter(req);
        const auto sort = http::readSort(req, CustomerRepository::kExportSorts);
        auto filters = nlohmann::json::object();
        if (filter.q) filters["q"] = *filter.q;
        if (filter.admins) filters["role"] = "admin";
        if (filter.twoFactor) filters["two_factor"] = *filter.twoFactor ? "true" : "false";
        if (filter.unconfirmed) filters["unconfirmed"] = "true";
        if (filter.closed) filters["closed"] = "true";
        filters["sort"] = sort.column;
        filters["dir"] = sort.descending ? "desc" : "asc";
        audit::CsvExport what{"customers", std::move(filters), kExportHeader};
        audit::streamCsv(res, customers.database(), audit::actorOf(req), std::move(what), [&customers, filter, sort](csv::Writer& out) {
            customers.each(filter, sort, [&out](const CustomerRow& c) {
                const bool closed = c.closedAt.has_value();
                out.text(closed ? std::optional<std::string>(auth::kClosedAccount) : c.email);
                out.text(closed ? std::nullopt : c.fullName);
                out.boolean(c.admin).boolean(c.twoFactor);
                out.time(audit::instantOf(c.emailConfirmedAt)).time(audit::instantOf(c.lastSignInAt));
                out.time(audit::instantOf(c.createdAt)).time(audit::instantOf(c.closedAt)).text(c.id);
                out.endRow();
            });
        });
    });
}

} // namespace

void registerCustomerRoutes(http::Router& router, CustomerRepository& customers, auth::CustomerAdmin& admin) {
    using http::Access;

    // Before /api/v1/admin/customers/{id}: the router takes the first pattern that matches.
    registerCustomerExport(router, customers);
    router.get("/api/v1/admin/customers", Access::StaffAdmin, [&customers](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto filter = readFilter(req);
        const auto sort = CustomerRepository::kSorts.orderBy(http::readSort(req, CustomerRepository::kSorts));
        res.json(200, http::pageJson(customers.list(filter, http::pageQuery(page, sort)), page));
    });

    router.get("/api/v1/admin/customers/{id}", Access::StaffAdmin, [&customers](http::Request& req, http::Response& res) {
        answerCustomer(customers, customerId(req), res);
    });

    router.post("/api/v1/admin/customers/{id}/resend-confirmation", Access::StaffAdmin,
                [&customers, &admin](http::Request& req, http::Response& res) {
        const auto id = customerId(req);
        noFields(req);
        admin.resendConfirmation(audit::actorOf(req), id);
        answerCustomer(customers, id, res);
    });

    router.post("/api/v1/admin/customers/{id}/send-recovery", Access::StaffAdmin,
                [&customers, &admin](http::Request& req, http::Response& res) {
        const auto id = customerId(req);
        noFields(req);
        admin.sendRecovery(audit::actorOf(req), id);
        answerCustomer(customers, id, res);
    });

    // {reason}: required, trimmed, at most CustomerAdmin::kMaxReasonChars characters.
    router.del("/api/v1/admin/customers/{id}/factors", Access::StaffAdmin,
               [&customers, &admin](http::Request& req, http::Response& res) {
        const auto id = customerId(req);
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        auto reason = body.optTrimmedText("reason", auth::CustomerAdmin::kMaxReasonChars);
        if (!reason && !body.failed("reason")) body.fail("reason", "Give the reason for resetting two-factor authentication.");
        body.check();
        admin.resetFactors(audit::actorOf(req), id, *reason);
        answerCustomer(customers, id, res);
    });

    router.put("/api/v1/admin/customers/{id}/roles/admin", Access::StaffAdmin,
               [&customers, &admin](http::Request& req, http::Response& res) {
        const auto id = customerId(req);
        noFields(req);
        admin.grantAdmin(audit::actorOf(req), id);
        answerCustomer(customers, id, res);
    });

    router.del("/api/v1/admin/customers/{id}/roles/admin", Access::StaffAdmin,
               [&customers, &admin](http::Request& req, http::Response& res) {
        const auto id = customerId(req);
        admin.revokeAdmin(audit::actorOf(req), id);
        answerCustomer(customers, id, res);
    });
}

} // namespace storefront::backoffice

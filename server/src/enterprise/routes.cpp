#include "enterprise/routes.h"

#include "audit/audit.h"
#include "common/text.h"
#include "enterprise/access.h"
#include "enterprise/account_json.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"
#include "mail/mail_message.h"

#include <Poco/String.h>

namespace storefront::enterprise {

namespace {

constexpr std::size_t kMaxCompanyChars = 200;
constexpr std::size_t kMaxEmailChars = 254;
constexpr std::int64_t kMaxQuantity = 100000;

// An id from the path: anything but a UUID names no row (404, never a database error).

std::string accountIdOf(const http::Request& req) {
    return http::idParam(req, "enterprise_account_not_found", "No such enterprise account.", "id");
}

// A required email member: present, and shaped like an address.
std::string requiredEmail(http::Body& body, const char* name) {
    auto value = body.requiredLine(name, kMaxEmailChars);
    if (!body.failed(name) && !mail::isValidEmailAddress(value)) body.fail(name, "Enter a valid email address.");
    return value;
}

std::optional<std::int64_t> quantityOf(http::Body& body, bool required) {
    auto quantity = body.optInteger("quantity");
    if (body.failed("quantity")) return std::nullopt;
    if (!quantity) {
        if (required) body.fail("quantity", "Quantity is required.");
    } else if (*quantity < 0 || *quantity > kMaxQuantity) {
        body.fail("quantity", "Quantity must be a whole number from 0 to " + std::to_string(kMaxQuantity) + ".");
    }
    return quantity;
}

std::optional<std::int64_t> maxLicensesOf(http::Body& body) {
    auto max = body.optInteger("max_licenses");
    if (max && (*max < 0 || *max > kMaxQuantity))
        body.fail("max_licenses", "Must be a whole number from 0 to " + std::to_string(kMaxQuantity) + ".");
    return max;
}

nlohmann::json detailsJson(const AccountDetails& d) {
    return {{"account", accountJson(d.account)}, {"members", membersJson(d.members)}, {"licences", licencesJson(d.licences)}};
}


void staffRoutes(http::Router& router, AccountRepository& accounts, EnterpriseService& service) {
    router.get("/api/v1/admin/enterprise-accounts", http::Access::StaffAdmin, [&accounts](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto search = http::readSearch(req);
        res.json(200, http::pageJson(accounts.list(search, http::pageQuery(page)), page, accountJson));
    });

    router.get("/api/v1/admin/enterprise-accounts/{id}", http::Access::StaffAdmin, [&service](http::Request& req, http::Response& res) {
        res.json(200, detailsJson(service.details(accountIdOf(req))));
    });

    router.post("/api/v1/admin/enterprise-accounts", http::Access::StaffAdmin, [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        CreateAccountInput in;
        in.companyName = body.requiredLine("company_name", kMaxCompanyChars);
        in.billingEmail = requiredEmail(body, "billing_email");
        in.adminEmail = requiredEmail(body, "admin_email");
        in.maxLicenses = maxLicensesOf(body);
        body.check();
        bool invited = false;
        auto details = service.create(audit::actorOf(req), in, invited);
        auto out = detailsJson(details);
        out["admin_invited"] = invited;
        res.json(201, out);
    });

    router.add("PATCH", "/api/v1/admin/enterprise-accounts/{id}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
                   const auto& id = accountIdOf(req);
                   http::Body body(req);
                   AccountChanges changes;
                   changes.isActive = body.optBoolean("is_active");
                   changes.maxLicenses = maxLicensesOf(body);
                   if (body.has("company_name")) changes.companyName = body.requiredLine("company_name", kMaxCompanyChars);
                   if (body.has("billing_email")) changes.billingEmail = requiredEmail(body, "billing_email");
                   body.check();
                   res.json(200, {{"account", accountJson(service.update(audit::actorOf(req), id, changes))}});
               });

    router.post("/api/v1/admin/enterprise-accounts/{id}/licences", http::Access::StaffAdmin,
                [&service](http::Request& req, http::Response& res) {
                    const auto& id = accountIdOf(req);
                    http::Body body(req);
                    auto productId = body.requiredText("product_id", 64);
                    if (!body.failed("product_id") && !common::isUuid(productId)) body.fail("product_id", "No such product.");
                    auto quantity = quantityOf(body, true);
                    body.check();
                    res.json(201, {{"licence", licenceJson(service.addLicence(audit::actorOf(req), id, productId, *quantity))}});
                });

    router.add("PATCH", "/api/v1/admin/enterprise-accounts/{id}/licences/{licenceId}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
                   const auto& id = accountIdOf(req);
                   const auto& licenceId = http::idParam(req, "licence_not_found", "No such licence on this account.", "licenceId");
                   http::Body body(req);
                   auto quantity = quantityOf(body, true);
                   body.check();
                   res.json(200, {{"licence", licenceJson(service.changeLicence(audit::actorOf(req), id, licenceId, *quantity))}});
               });

    router.del("/api/v1/admin/enterprise-accounts/{id}/licences/{licenceId}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
                   const auto& id = accountIdOf(req);
                   const auto& licenceId = http::idParam(req, "licence_not_found", "No such licence on this account.", "licenceId");
                   service.removeLicence(audit::actorOf(req), id, licenceId);
                   res.json(200, {{"id", licenceId}, {"deleted", true}});
               });
}

void teamRoutes(http::Router& router, AccountRepository& accounts, EnterpriseService& service) {
    router.check(http::Access::EnterpriseAdmin,
                 [&accounts](http::Request& req) { requireEnterpriseAdmin(accounts, req); });

    router.get("/api/v1/enterprise", http::Access::EnterpriseAdmin, [&service](http::Request& req, http::Response& res) {
        res.json(200, detailsJson(service.team(req.caller()->userId)));
    });

    router.post("/api/v1/enterprise/members", http::Access::EnterpriseAdmin, [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        auto email = requiredEmail(body, "email");
        body.check();
        res.json(201, {{"member", memberJson(service.addMember(audit::actorOf(req), req.caller()->userId, email))}});
    });

    router.del("/api/v1/enterprise/members/{id}", http::Access::EnterpriseAdmin,
               [&service](http::Request& req, http::Response& res) {
                   const auto& id = http::idParam(req, "member_not_found", "No such member on this account.", "id");
                   service.removeMember(audit::actorOf(req), req.caller()->userId, id);
                   res.json(200, {{"id", id}, {"deleted", true}});
               });
}

} // namespace

void registerRoutes(http::Router& router, AccountRepository& accounts, EnterpriseService& service) {
    staffRoutes(router, accounts, service);
    teamRoutes(router, accounts, service);
}

} // namespace storefront::enterprise

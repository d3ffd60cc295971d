#include "enterprise/routes.h"

#include "enterprise/access.h"
#include "http/api_error.h"

namespace storefront::enterprise {

namespace {

nlohmann::json toJson(const Account& a) {
    return {{"id", a.id},
            {"company_name", a.companyName},
            {"billing_email", a.billingEmail},
            {"max_licenses", a.maxLicenses},
            {"is_active", a.isActive},
            {"created_at", a.createdAt},
            {"member_count", a.memberCount}};
}

} // namespace

void registerRoutes(http::Router& router, AccountRepository& accounts) {
    router.check(http::Access::EnterpriseAdmin,
                 [&accounts](http::Request& req) { requireEnterpriseAdmin(accounts, req); });

    router.get("/api/v1/enterprise", http::Access::EnterpriseAdmin, [&accounts](http::Request& req, http::Response& res) {
        auto account = accounts.findAdministeredBy(req.caller()->userId);
        if (!account) throw http::ApiError::notFound("enterprise_account_not_found", "No Enterprise Account");
        res.json(200, {{"account", toJson(*account)}});
        res.set("Cache-Control", "no-store");
    });
}

} // namespace storefront::enterprise

#include "enterprise/module.h"

#include "enterprise/routes.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::enterprise {

namespace {

// Demo people sign in with this password (docs/enterprise.md); demo only, never production.
constexpr const char* kDemoPassword = "Signalcraft-demo-2026";

} // namespace

void Module::routes(http::Router& router) { registerRoutes(router, accounts_, service_); }

void Module::demo(db::Database& db) {
    const auto actor = audit::systemActor("system", "demo");
    const auto products = licences_.demoProducts(db, 2);
    if (products.empty()) {
        Poco::Logger::get("storefront").warning("enterprise demo: no products, so no enterprise accounts");
        return;
    }
    auto person = [&](const std::string& name) {
        const std::string email = name + "@demo.signalcraft.test";
        try {
            users_.createFromShell(email, std::string(kDemoPassword), false);
        } catch (const http::ApiError&) { // already there (another area's demo): use it
        }
        return email;
    };
    struct DemoAccount {
        std::string company, admin;
        std::vector<std::string> members;
        std::int64_t seats;
        bool active;
    };
    const std::vector<DemoAccount> accounts = {
        {"Harbour Traffic Systems Ltd", "ops.lead", {"tech.aroha", "tech.liam", "tech.mei"}, 3, true},
        {"Southern Signals Contracting", "fleet.admin", {"field.sam"}, 2, false},
    };
    for (const auto& d : accounts) {
        const auto adminEmail = person(d.admin);
        bool invited = false;
        auto created = service_.create(actor, {d.company, "accounts@" + d.admin + ".demo.signalcraft.test", adminEmail, 5}, invited);
        for (std::size_t i = 0; i < products.size(); ++i)
            service_.addLicence(actor, created.account.id, products[i], i == 0 ? d.seats : 1);
        for (const auto& member : d.members) service_.addMember(actor, created.account.adminUserId, person(member));
        if (!d.active) service_.update(actor, created.account.id, AccountChanges{std::nullopt, std::nullopt, std::nullopt, false});
    }
}

} // namespace storefront::enterprise

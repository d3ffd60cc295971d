#include "contact/module.h"

#include "contact/admin_routes.h"
#include "contact/routes.h"

#include <vector>

namespace storefront::contact {

void Module::routes(http::Router& router) {
    registerRoutes(router, service_, limiter_, limits_.perWindow, limits_.windowSeconds, identify_);
    registerAdminRoutes(router, admin_);
}

void Module::demo(db::Database& db) {
    SubmissionRepository submissions;
    struct Demo {
        ContactSubmission submission;
        int hoursAgo;
        bool handled;
    };
    const std::vector<Demo> demos = {
        {{"Aroha Ngata", "aroha@waka-traffic.demo.signalcraft.test", "Waka Traffic Management", "021 555 0101",
          "We run twelve crews across Wellington. Could we get a quote for twenty HHTraff seats on a yearly plan?"},
         3, false},
        {{"Liam O'Connor", "liam@southern-signals.demo.signalcraft.test", "Southern Signals Contracting", std::nullopt,
          "Do the Bluetooth adapters work with the older Siemens controllers? We have about forty of them."},
         26, false},
        {{"Mei Chen", "mei.chen@demo.signalcraft.test", std::nullopt, "09 555 0199",
          "Please send me your enterprise pricing sheet and the terms for a 30-day trial."},
         24 * 5, true},
    };
    db.write([&](db::Tx& tx) {
        for (const auto& d : demos) {
            const auto id = submissions.insert(tx, d.submission, "demo", tx.clock().timestampAfter(-d.hoursAgo * 3600));
            if (d.handled) submissions.setHandled(tx, id, true, std::nullopt);
        }
    });
}

} // namespace storefront::contact

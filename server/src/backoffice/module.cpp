#include "backoffice/module.h"

#include "auth/user_repository.h"
#include "backoffice/customer_routes.h"
#include "common/nz_time.h"
#include "http/router.h"

namespace storefront::backoffice {

namespace {

// "Recent" revenue: today and the 29 New Zealand days before it.
constexpr int kRecentDaysBack = 29;

} // namespace

void Module::routes(http::Router& router) {
    router.get("/api/v1/admin/stats", http::Access::StaffAdmin, [this](http::Request&, http::Response& res) {
        const auto since = formatTimestamp(nz::dayStart(nz::instantOf(clock_.now()), kRecentDaysBack));
        const auto st = stats_.read(since);
        res.json(200, {{"total_users", st.totalUsers},
                       {"total_products", st.totalProducts},
                       {"active_subscriptions", st.activeSubscriptions},
                       {"total_orders", st.totalOrders},
                       {"enterprise_accounts", st.enterpriseAccounts},
                       {"recent_revenue", st.recentRevenue},
                       {"total_revenue", st.totalRevenue},
                       {"recent_revenue_by_currency", st.recentByCurrency},
                       {"total_revenue_by_currency", st.totalByCurrency},
                       {"currency", "NZD"}});
    });
    registerCustomerRoutes(router, customers_, customerAdmin_);
}

void Module::demo(db::Database& db) {
    auth::UserRepository users;
    db.write([&](db::Tx& tx) {
        // Signed up, never confirmed: the customers screen's "Unconfirmed" filter and "Resend".
        auth::NewUser pending;
        pending.email = "finn@demo.signalcraft.test";
        pending.userMetadata = {{"full_name", "Finn Roberts"}, {"demo", true}};
        if (!users.findByEmail(tx.session(), pending.email)) users.insert(tx, pending);
        // A closed account as issue 24 leaves it: the row kept, its address and profile gone.
        auth::NewUser gone;
        gone.email = "gone@demo.signalcraft.test";
        gone.confirmed = true;
        if (!users.findByEmail(tx.session(), gone.email)) users.softDelete(tx, users.insert(tx, gone));
    });
}

} // namespace storefront::backoffice

#include "backoffice/module.h"

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

} // namespace storefront::backoffice

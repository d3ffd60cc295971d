#include "backoffice/module.h"

#include "auth/user_repository.h"
#include "backoffice/customer_routes.h"
#include "common/nz_time.h"
#include "http/router.h"

namespace storefront::backoffice {

namespace {

// "Recent" revenue: today and the 29 New Zealand days before it.
constexpr int kRecentDaysBack = 29;
// The charts: revenue and subscriptions over the last 12 months, orders over the last 30 days.
constexpr int kChartMonths = 12;
constexpr int kChartDays = 30;

nlohmann::json seriesJson(const Series& s) {
    auto revenue = nlohmann::json::array();
    for (std::size_t i = 0; i < s.months.labels.size(); ++i) {
        nlohmann::json perCurrency = nlohmann::json::object();
        for (const auto& [currency, line] : s.revenueByMonth) perCurrency[currency] = line[i];
        revenue.push_back({{"month", s.months.labels[i]}, {"starts_at", nz::formatWithOffset(s.months.bounds[i])}, {"revenue", perCurrency}});
    }
    auto orders = nlohmann::json::array();
    for (std::size_t i = 0; i < s.days.labels.size(); ++i)
        orders.push_back({{"day", s.days.labels[i]}, {"starts_at", nz::formatWithOffset(s.days.bounds[i])}, {"orders", s.ordersByDay[i]}});
    auto subscriptions = nlohmann::json::array();
    for (std::size_t i = 0; i < s.months.labels.size(); ++i)
        subscriptions.push_back({{"month", s.months.labels[i]},
                                 {"starts_at", nz::formatWithOffset(s.months.bounds[i])},
                                 {"new", s.newSubscriptions[i]},
                                 {"cancelled", s.cancellations[i]}});
    return {{"time_zone", "Pacific/Auckland"},
            {"currencies", {"NZD", "AUD", "USD"}},
            {"revenue_by_month", revenue},
            {"orders_by_day", orders},
            {"subscriptions_by_month", subscriptions}};
}

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
    // The dashboard's charts: every bucket present (zero when nothing happened), oldest first.
    router.get("/api/v1/admin/stats/series", http::Access::StaffAdmin, [this](http::Request&, http::Response& res) {
        const auto now = nz::instantOf(clock_.now());
        res.json(200, seriesJson(stats_.series(lastMonths(now, kChartMonths), lastDays(now, kChartDays))));
    });
    router.get("/api/v1/admin/todo", http::Access::StaffAdmin, [this](http::Request&, http::Response& res) {
        const auto todo = stats_.todo();
        res.json(200, {{"orders_to_ship", todo.ordersToShip}, {"enquiries_open", todo.enquiriesOpen}, {"mail_failed", todo.mailFailed},
                       {"payments_to_return", todo.paymentsToReturn}});
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
        // A closed account: the row kept, its address gone (the admin's soft delete; a customer's
        // own closing also removes the profile and the rest, docs/privacy.md).
        auth::NewUser gone;
        gone.email = "gone@demo.signalcraft.test";
        gone.confirmed = true;
        if (!users.findByEmail(tx.session(), gone.email)) users.softDelete(tx, users.insert(tx, gone));
    });
}

} // namespace storefront::backoffice

#include "backoffice/stats_repository.h"

namespace storefront::backoffice {

namespace {

constexpr const char* kUsers = "SELECT COUNT(*) FROM users WHERE deleted_at IS NULL";
constexpr const char* kProducts = "SELECT COUNT(*) FROM products";
// subscriptions_status_created_at_idx serves it.
constexpr const char* kActiveSubscriptions = "SELECT COUNT(*) FROM subscriptions WHERE status IN ('active', 'trialing')";
constexpr const char* kOrders = "SELECT COUNT(*) FROM orders";
constexpr const char* kEnterpriseAccounts = "SELECT COUNT(*) FROM enterprise_accounts";
// Revenue: what was paid and kept (a shipped or completed order was paid too).
constexpr const char* kRevenue =
    "SELECT COALESCE(SUM(total_amount), 0) FROM orders WHERE status IN ('paid', 'shipped', 'completed') "
    "AND paid_after_cancellation = FALSE AND currency = 'NZD'";
const std::string kRecentRevenue = std::string(kRevenue) + " AND created_at >= ?";

} // namespace

Stats StatsRepository::read(const std::string& since) {
    auto s = db_.session();
    Stats st;
    st.totalUsers = db::query(s, kUsers).count();
    st.totalProducts = db::query(s, kProducts).count();
    st.activeSubscriptions = db::query(s, kActiveSubscriptions).count();
    st.totalOrders = db::query(s, kOrders).count();
    st.enterpriseAccounts = db::query(s, kEnterpriseAccounts).count();
    st.totalRevenue = db::query(s, kRevenue).count();
    st.recentRevenue = db::query(s, kRecentRevenue).bind(since).count();
    return st;
}

} // namespace storefront::backoffice

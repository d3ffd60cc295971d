#include "backoffice/stats_repository.h"

namespace storefront::backoffice {

namespace {

constexpr const char* kUsers = "SELECT COUNT(*) FROM users WHERE deleted_at IS NULL";
constexpr const char* kProducts = "SELECT COUNT(*) FROM products";
// subscriptions_status_created_at_idx serves it.
constexpr const char* kActiveSubscriptions = "SELECT COUNT(*) FROM subscriptions WHERE status IN ('active', 'trialing')";
constexpr const char* kOrders = "SELECT COUNT(*) FROM orders";
constexpr const char* kEnterpriseAccounts = "SELECT COUNT(*) FROM enterprise_accounts";
// Revenue: the payments ledger's net sum per currency (money in positive, refunds and lost disputes
// negative); payment_ledger_occurred_at_idx serves the recent one.
constexpr const char* kRevenue = "SELECT currency, CAST(SUM(amount) AS BIGINT) AS total FROM payment_ledger GROUP BY currency";
constexpr const char* kRecentRevenue =
    "SELECT currency, CAST(SUM(amount) AS BIGINT) AS total FROM payment_ledger WHERE occurred_at >= ? GROUP BY currency";

std::map<std::string, std::int64_t> perCurrency(std::vector<std::pair<std::string, std::int64_t>> rows) {
    std::map<std::string, std::int64_t> out{{"NZD", 0}, {"AUD", 0}, {"USD", 0}};
    for (auto& [currency, total] : rows) out[currency] = total;
    return out;
}

std::pair<std::string, std::int64_t> readSum(const db::Row& r) { return {r.text("currency"), r.int64("total")}; }
} // namespace

Stats StatsRepository::read(const std::string& since) {
    auto s = db_.session();
    Stats st;
    st.totalUsers = db::query(s, kUsers).count();
    st.totalProducts = db::query(s, kProducts).count();
    st.activeSubscriptions = db::query(s, kActiveSubscriptions).count();
    st.totalOrders = db::query(s, kOrders).count();
    st.enterpriseAccounts = db::query(s, kEnterpriseAccounts).count();
    st.totalByCurrency = perCurrency(db::query(s, kRevenue).all(readSum));
    st.recentByCurrency = perCurrency(db::query(s, kRecentRevenue).bind(since).all(readSum));
    st.totalRevenue = st.totalByCurrency["NZD"];
    st.recentRevenue = st.recentByCurrency["NZD"];
    return st;
}

} // namespace storefront::backoffice

#include "backoffice/stats_repository.h"

#include "billing/orders/shippable.h"
#include "common/clock.h"

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

// The charts: rows summed into New Zealand days or months in one statement per series. The bucket
// is a CASE over the buckets' UTC start instants (bound, so the statement text depends only on
// how many buckets there are), and the range test uses the column's index.
constexpr const char* kRevenueSeries =
    "SELECT {bucket} AS bucket, currency, CAST(SUM(amount) AS BIGINT) AS total FROM payment_ledger "
    "WHERE occurred_at >= ? AND occurred_at < ? GROUP BY 1, 2";
constexpr const char* kOrderSeries =
    "SELECT {bucket} AS bucket, COUNT(*) AS total FROM orders "
    "WHERE created_at >= ? AND created_at < ? AND status NOT IN ('pending', 'cancelled') GROUP BY 1";
constexpr const char* kNewSubscriptionSeries =
    "SELECT {bucket} AS bucket, COUNT(*) AS total FROM subscriptions "
    "WHERE created_at >= ? AND created_at < ? AND status <> 'pending' GROUP BY 1";
constexpr const char* kEndedSubscriptionSeries =
    "SELECT {bucket} AS bucket, COUNT(*) AS total FROM subscriptions "
    "WHERE updated_at >= ? AND updated_at < ? AND status IN ('cancelled', 'expired') GROUP BY 1";

// The staff's to-do counts: the same conditions as the filtered lists they link to (the orders
// list's to_ship, the enquiries' handled=false, the outbox's status=failed).
constexpr const char* kOrdersToShip = "SELECT COUNT(*) FROM orders o WHERE " STOREFRONT_ORDER_AWAITING_SHIPMENT;
constexpr const char* kEnquiriesOpen = "SELECT COUNT(*) FROM contact_submissions WHERE handled_at IS NULL";
constexpr const char* kMailFailed = "SELECT COUNT(*) FROM mail_outbox WHERE status = 'failed'";
constexpr const char* kPaymentsToReturn = "SELECT COUNT(*) FROM orders WHERE payment_to_return = TRUE";

// kXxxSeries with {bucket} as "CASE WHEN col < ? THEN 0 WHEN col < ? THEN 1 ... ELSE n-1 END".
std::string withBuckets(std::string sql, const std::string& column, std::size_t count) {
    std::string bucket = "CASE";
    for (std::size_t i = 0; i + 1 < count; ++i) bucket += " WHEN " + column + " < ? THEN " + std::to_string(i);
    bucket += " ELSE " + std::to_string(count - 1) + " END";
    sql.replace(sql.find("{bucket}"), 8, bucket);
    return sql;
}

// Binds the inner bucket starts (the CASE), then the range.
db::Query& bindBuckets(db::Query& q, const Buckets& b) {
    for (std::size_t i = 1; i + 1 < b.bounds.size(); ++i) q.bind(formatTimestamp(b.bounds[i]));
    return q.bind(formatTimestamp(b.bounds.front()), formatTimestamp(b.bounds.back()));
}

std::vector<std::int64_t> counted(Poco::Data::Session& s, const char* sql, const std::string& column, const Buckets& b) {
    std::vector<std::int64_t> out(b.labels.size(), 0);
    auto q = db::query(s, withBuckets(sql, column, b.labels.size()));
    for (auto [bucket, total] : bindBuckets(q, b).all([](const db::Row& r) { return std::pair{r.int64("bucket"), r.int64("total")}; }))
        if (bucket >= 0 && bucket < static_cast<std::int64_t>(out.size())) out[static_cast<std::size_t>(bucket)] = total;
    return out;
}

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

Todo StatsRepository::todo() {
    auto s = db_.session();
    return Todo{db::query(s, kOrdersToShip).count(), db::query(s, kEnquiriesOpen).count(), db::query(s, kMailFailed).count(),
                db::query(s, kPaymentsToReturn).count()};
}

Series StatsRepository::series(const Buckets& months, const Buckets& days) {
    auto s = db_.session();
    Series out{months, days, {}, {}, {}, {}};
    for (const char* currency : {"NZD", "AUD", "USD"}) out.revenueByMonth[currency].assign(months.labels.size(), 0);
    struct Sum {
        std::int64_t bucket;
        std::string currency;
        std::int64_t total;
    };
    auto q = db::query(s, withBuckets(kRevenueSeries, "occurred_at", months.labels.size()));
    for (const auto& sum : bindBuckets(q, months).all([](const db::Row& r) { return Sum{r.int64("bucket"), r.text("currency"), r.int64("total")}; })) {
        auto& line = out.revenueByMonth[sum.currency];
        line.resize(months.labels.size(), 0);
        if (sum.bucket >= 0 && sum.bucket < static_cast<std::int64_t>(line.size())) line[static_cast<std::size_t>(sum.bucket)] = sum.total;
    }
    out.ordersByDay = counted(s, kOrderSeries, "created_at", days);
    out.newSubscriptions = counted(s, kNewSubscriptionSeries, "created_at", months);
    out.cancellations = counted(s, kEndedSubscriptionSeries, "updated_at", months);
    return out;
}

} // namespace storefront::backoffice

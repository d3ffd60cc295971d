#pragma once
// The admin dashboard's figures, counted in SQL (GET /api/v1/admin/stats). The back office reads
// across areas (users, products, subscriptions, orders, enterprise accounts) only here, with COUNT
// and SUM statements of its own: one small repository rather than a count method in five others.
#include "backoffice/series.h"
#include "db/database.h"

#include <cstdint>
#include <map>
#include <string>

namespace storefront::backoffice {

struct Stats {
    std::int64_t totalUsers = 0, totalProducts = 0, activeSubscriptions = 0, totalOrders = 0, enterpriseAccounts = 0;
    std::int64_t recentRevenue = 0, totalRevenue = 0; // NZD minor units (the headline)
    std::map<std::string, std::int64_t> recentByCurrency, totalByCurrency; // NZD, AUD and USD, minor units
};

// The dashboard charts (GET /api/v1/admin/stats/series): every bucket present, zero when empty.
struct Series {
    Buckets months, days;
    std::map<std::string, std::vector<std::int64_t>> revenueByMonth; // NZD, AUD and USD: the ledger's net, minor units
    std::vector<std::int64_t> ordersByDay;                            // paid orders placed that day
    std::vector<std::int64_t> newSubscriptions, cancellations;        // per month
};

// What waits for the staff (GET /api/v1/admin/todo): the side navigation's counts and the
// dashboard's to-do list.
struct Todo {
    std::int64_t ordersToShip = 0; // paid, something to ship, not shipped (billing/orders/shippable.h)
    std::int64_t enquiriesOpen = 0; // not handled
    std::int64_t mailFailed = 0;    // the outbox gave up on them
    std::int64_t paymentsToReturn = 0; // orders paid twice, with a payment still to return
};

class StatsRepository {
public:
    explicit StatsRepository(db::Database& db) : db_(db) {}
    // Revenue since `since` (an ISO-8601 UTC timestamp) and all time, per currency: the payments
    // ledger's sums (order payments and subscription invoices in, refunds and lost disputes out;
    // docs/billing.md, "The ledger, refunds and disputes"). Users: not soft-deleted.
    Stats read(const std::string& since);
    // The charts over `months` and `days`: the ledger's net per currency by the month its entry
    // occurred; orders by the day they were placed, counting those that were paid (not pending,
    // not cancelled); subscriptions by the month they began (not pending) and by the month they
    // ended (cancelled or expired: an ended subscription never changes again, so its updated_at is
    // when it ended).
    Series series(const Buckets& months, const Buckets& days);
    Todo todo();

private:
    db::Database& db_;
};

} // namespace storefront::backoffice

// The dashboard charts (GET /api/v1/admin/stats/series): revenue per month per currency from the
// payments ledger (net of refunds), paid orders per New Zealand day, new and ended subscriptions
// per month; every bucket present, New Zealand days and months. The database is shared with the
// other tests, so figures are compared before and after.
#include "api/admin_support.h"
#include "common/clock.h"
#include "common/nz_time.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

namespace nz = storefront::nz;
using std::chrono::seconds;

nlohmann::json series() {
    auto res = getJson("/api/v1/admin/stats/series", callers().admin);
    if (res.status != 200) throw std::runtime_error("series: " + res.body);
    return res.json();
}

std::string at(nz::Instant instant) { return storefront::formatTimestamp(instant); }

nz::Instant now() { return nz::instantOf(testClock().now()); }

// Today's and this month's New Zealand starts.
nz::Instant todayStart() { return nz::dayStart(now(), 0); }
nz::Instant monthStart(int monthsBack) {
    const auto today = nz::dateOf(now());
    return nz::startOfMonth(today.year() / today.month() - date::months{monthsBack});
}

void ledgerEntry(const std::string& kind, std::int64_t amount, const std::string& currency, nz::Instant when) {
    const auto id = storefront::db::newId();
    execSql("INSERT INTO payment_ledger (id, entry_key, kind, amount, currency, provider, occurred_at) "
            "VALUES (?, ?, ?, " + std::to_string(amount) + ", ?, 'local', ?)",
            {id, "series:" + id, kind, currency, at(when)});
}

std::int64_t revenue(const nlohmann::json& s, std::size_t month, const char* currency) {
    return s["revenue_by_month"][month]["revenue"][currency].get<std::int64_t>();
}
std::int64_t orders(const nlohmann::json& s, std::size_t day) { return s["orders_by_day"][day]["orders"].get<std::int64_t>(); }
std::int64_t subs(const nlohmann::json& s, std::size_t month, const char* key) {
    return s["subscriptions_by_month"][month][key].get<std::int64_t>();
}

// Within ten minutes of a New Zealand midnight, moves the servers' clock a minute past it for as
// long as it lives, so a test's "today" cannot turn into tomorrow between its rows and its request
// (a few minutes: the callers' sessions stay valid).
struct AwayFromMidnight {
    AwayFromMidnight() {
        const auto left = nz::dayStart(now(), -1) - now();
        if (left < std::chrono::minutes(10)) shift.advance(std::chrono::duration_cast<std::chrono::milliseconds>(left + std::chrono::minutes(1)));
    }
    ClockShift shift;
};

} // namespace

TEST(AdminSeriesApi, OnlyAdminsAtAal2) {
    expectStaffOnly("GET", "/api/v1/admin/stats/series"); // visitor 401, customer 403, admin at aal1 403
    EXPECT_EQ(getJson("/api/v1/admin/stats/series", callers().adminAal1).json()["code"], "insufficient_aal");
}

TEST(AdminSeriesApi, EveryBucketIsPresentOldestFirstInNewZealandDates) {
    AwayFromMidnight away;
    const auto s = series();
    EXPECT_EQ(s["time_zone"], "Pacific/Auckland");
    EXPECT_EQ(s["currencies"], nlohmann::json({"NZD", "AUD", "USD"}));
    ASSERT_EQ(s["revenue_by_month"].size(), 12u);
    ASSERT_EQ(s["orders_by_day"].size(), 30u);
    ASSERT_EQ(s["subscriptions_by_month"].size(), 12u);
    // Consecutive New Zealand days ending today, each starting at its own midnight.
    for (int i = 0; i < 30; ++i) {
        const auto start = nz::dayStart(now(), 29 - i);
        const auto& day = s["orders_by_day"][static_cast<std::size_t>(i)];
        EXPECT_EQ(day["day"], nz::formatWithOffset(start).substr(0, 10)) << i;
        EXPECT_EQ(day["starts_at"], nz::formatWithOffset(start)) << i;
        EXPECT_TRUE(day["orders"].is_number_integer()) << i;
    }
    for (int i = 0; i < 12; ++i) {
        const auto start = monthStart(11 - i);
        const auto index = static_cast<std::size_t>(i);
        EXPECT_EQ(s["revenue_by_month"][index]["month"], nz::formatWithOffset(start).substr(0, 7)) << i;
        EXPECT_EQ(s["revenue_by_month"][index]["starts_at"], nz::formatWithOffset(start)) << i;
        EXPECT_EQ(s["subscriptions_by_month"][index]["month"], s["revenue_by_month"][index]["month"]) << i;
        for (const char* currency : {"NZD", "AUD", "USD"})
            EXPECT_TRUE(s["revenue_by_month"][index]["revenue"][currency].is_number_integer()) << i << currency; // zero-filled
        EXPECT_TRUE(s["subscriptions_by_month"][index]["new"].is_number_integer()) << i;
        EXPECT_TRUE(s["subscriptions_by_month"][index]["cancelled"].is_number_integer()) << i;
    }
}

TEST(AdminSeriesApi, RevenueIsTheLedgersNetPerCurrencyPerNewZealandMonth) {
    AwayFromMidnight away;
    const auto before = series();
    const auto thisMonth = monthStart(0), lastMonth = monthStart(1);
    ledgerEntry("order_payment", 1000, "NZD", thisMonth);                // the first second of this month
    ledgerEntry("subscription_payment", 230, "NZD", now());              // a renewal counts
    ledgerEntry("refund", -100, "NZD", now());                           // refunds come off
    ledgerEntry("dispute_lost", -30, "NZD", now());                      // so do lost disputes
    ledgerEntry("order_payment", 500, "NZD", thisMonth - seconds(1));    // the last second of last month
    ledgerEntry("order_payment", 600000, "AUD", lastMonth);              // currencies apart
    ledgerEntry("order_payment", 7, "NZD", monthStart(11) - seconds(1)); // older than the 12 months
    ledgerEntry("order_payment", 9, "USD", nz::dayStart(now(), -1) + std::chrono::hours(24 * 40)); // in the future
    insertOrder("paid", 50000, at(now()));                               // an order alone moves no money
    const auto after = series();
    auto delta = [&](std::size_t month, const char* currency) { return revenue(after, month, currency) - revenue(before, month, currency); };
    EXPECT_EQ(delta(11, "NZD"), 1100);
    EXPECT_EQ(delta(10, "NZD"), 500);
    EXPECT_EQ(delta(10, "AUD"), 600000);
    EXPECT_EQ(delta(11, "AUD"), 0);
    for (std::size_t m = 0; m < 12; ++m) EXPECT_EQ(delta(m, "USD"), 0) << m;
    for (std::size_t m = 0; m < 10; ++m) EXPECT_EQ(delta(m, "NZD"), 0) << m;
}

TEST(AdminSeriesApi, PaidOrdersCountOnTheirNewZealandDay) {
    AwayFromMidnight away;
    const auto before = series();
    const auto today = todayStart();
    insertOrder("paid", 1000, at(today));                   // midnight: today
    insertOrder("shipped", 1000, at(now()));                // today
    insertOrder("paid", 1000, at(today - seconds(1)));      // 23:59:59 yesterday (NZ), though it may be today in UTC
    insertOrder("refunded", 1000, at(today - seconds(1)));  // it was paid
    insertOrder("pending", 1000, at(now()));                // not paid: not counted
    insertOrder("cancelled", 1000, at(now()));              // never paid
    insertOrder("paid", 1000, at(nz::dayStart(now(), 29) - seconds(1))); // before the 30 days
    insertOrder("paid", 1000, at(nz::dayStart(now(), -1)));               // tomorrow
    const auto after = series();
    EXPECT_EQ(orders(after, 29) - orders(before, 29), 2);
    EXPECT_EQ(orders(after, 28) - orders(before, 28), 2);
    for (std::size_t d = 0; d < 28; ++d) EXPECT_EQ(orders(after, d) - orders(before, d), 0) << d;
}

TEST(AdminSeriesApi, NewAndEndedSubscriptionsPerMonth) {
    AwayFromMidnight away;
    const auto before = series();
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    // A customer of their own for each (one live subscription per customer and product).
    auto subscription = [&](const char* status, nz::Instant created, nz::Instant updated) {
        auto user = createUser("series-sub");
        execSql("INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'manual', ?, ?)",
                {storefront::db::newId(), user.id, product.id, status, at(created), at(updated)});
    };
    subscription("active", now(), now());                               // new this month
    subscription("trialing", monthStart(0), monthStart(0));             // new this month
    subscription("pending", now(), now());                              // not begun: not new
    subscription("cancelled", monthStart(2), monthStart(0));            // began two months ago, ended this month
    subscription("expired", monthStart(1), monthStart(0) - seconds(1)); // began and ended last month
    const auto after = series();
    auto delta = [&](std::size_t month, const char* key) { return subs(after, month, key) - subs(before, month, key); };
    EXPECT_EQ(delta(11, "new"), 2);
    EXPECT_EQ(delta(11, "cancelled"), 1);
    EXPECT_EQ(delta(10, "new"), 1);
    EXPECT_EQ(delta(10, "cancelled"), 1);
    EXPECT_EQ(delta(9, "new"), 1);
    EXPECT_EQ(delta(9, "cancelled"), 0);
}

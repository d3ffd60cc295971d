// The local demo's back-office rows (STOREFRONT_DEMO_DATA): every admin list has rows in every
// status, and they are written once however often a server starts.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

TEST(AdminDemoData, EveryStatusHasRowsAndTheyAreWrittenOnce) {
    serverWith({{"STOREFRONT_DEMO_DATA", "true"}});
    serverWith({{"STOREFRONT_DEMO_DATA", "true"}, {"STOREFRONT_CATALOG_CACHE_MS", "1"}}); // a second start: nothing more
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email IN ('aroha@demo.signalcraft.test', "
                        "'ben@demo.signalcraft.test', 'chloe@demo.signalcraft.test', 'dev@demo.signalcraft.test', "
                        "'emma@demo.signalcraft.test')"),
              5);
    for (const char* status : {"pending", "paid", "shipped", "completed", "cancelled"})
        EXPECT_GE(countRows("SELECT COUNT(*) FROM orders WHERE order_number LIKE 'DEMO-%' AND status = ?", {status}), 1) << status;
    for (const char* status : {"trialing", "pending", "past_due", "cancelled", "expired"})
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id LIKE 'sub_demo_%' AND status = ?",
                            {status}),
                  1)
            << status;
    // Two active: one renews, one ends at its period end; the past-due one's grace runs.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id LIKE 'sub_demo_%' AND status = 'active' "
                        "AND cancel_at_period_end = FALSE"),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id LIKE 'sub_demo_%' AND status = 'active' "
                        "AND cancel_at_period_end = TRUE"),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id LIKE 'sub_demo_%' AND status = 'past_due' "
                        "AND past_due_since IS NOT NULL"),
              1);
    auto late = getJson("/api/v1/admin/orders?status=paid_after_cancellation&q=demo.signalcraft.test", callers().admin).json();
    ASSERT_GE(late["total"].get<int>(), 1);
    auto order = getJson("/api/v1/admin/orders/" + late["items"][0]["id"].get<std::string>(), callers().admin).json()["order"];
    EXPECT_EQ(order["history"].size(), 3u);
    EXPECT_EQ(order["late_payments"].size(), 1u);
    EXPECT_EQ(order["items"].size(), 1u);

    // The dashboard's charts have something to show: paid orders on most of the last 30 days,
    // revenue in most months in NZD and AUD, and subscriptions begun and ended over the year.
    auto series = getJson("/api/v1/admin/stats/series", callers().admin).json();
    int busyDays = 0, nzdMonths = 0, audMonths = 0, started = 0, ended = 0;
    for (const auto& day : series["orders_by_day"]) busyDays += day["orders"].get<int>() > 0 ? 1 : 0;
    for (const auto& month : series["revenue_by_month"]) {
        nzdMonths += month["revenue"]["NZD"].get<std::int64_t>() != 0 ? 1 : 0;
        audMonths += month["revenue"]["AUD"].get<std::int64_t>() != 0 ? 1 : 0;
    }
    for (const auto& month : series["subscriptions_by_month"]) {
        started += month["new"].get<int>();
        ended += month["cancelled"].get<int>();
    }
    EXPECT_GE(busyDays, 20);
    EXPECT_GE(nzdMonths, 10);
    EXPECT_GE(audMonths, 10);
    EXPECT_GE(started, 15);
    EXPECT_GE(ended, 15);
}

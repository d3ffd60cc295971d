// The admin dashboard's figures: counts without soft-deleted users, revenue from paid, shipped and
// completed orders (not cancelled ones, not ones paid after cancellation), the last 30 NZ days.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

nlohmann::json stats() {
    auto res = getJson("/api/v1/admin/stats", callers().admin);
    if (res.status != 200) throw std::runtime_error("stats: " + res.body);
    return res.json();
}

std::int64_t delta(const nlohmann::json& after, const nlohmann::json& before, const char* key) {
    return after[key].get<std::int64_t>() - before[key].get<std::int64_t>();
}

} // namespace

TEST(AdminStatsApi, OnlyStaffAdmins) {
    expectStaffOnly("GET", "/api/v1/admin/stats");
    auto j = stats();
    for (const char* key : {"total_users", "total_products", "active_subscriptions", "total_orders", "enterprise_accounts",
                            "recent_revenue", "total_revenue"})
        EXPECT_TRUE(j[key].is_number_integer()) << key;
    EXPECT_EQ(j["currency"], "NZD");

    // An admin without a factor: refused while two-factor is required for admins (production),
    // let in where it is not (the local demo).
    auto noFactor = createUser("bo-admin-nofactor");
    grantAdmin(noFactor.id);
    auto session = signIn(noFactor, newClientIp());
    auto refused = getJson("/api/v1/admin/stats", session.headers());
    EXPECT_EQ(refused.status, 403);
    EXPECT_EQ(refused.json()["code"], "mfa_enrollment_required");
    const int demo = serverWith({{"STOREFRONT_AUTH_ADMIN_MFA_REQUIRED", "false"}});
    for (const char* path : {"/api/v1/admin/stats", "/api/v1/admin/orders", "/api/v1/admin/products",
                             "/api/v1/admin/subscriptions", "/api/v1/admin/images"})
        EXPECT_EQ(http(demo, "GET", path, "", session.headers()).status, 200) << path;
}

TEST(AdminStatsApi, RevenueCountsWhatWasPaidAndKept) {
    const auto before = stats();
    const auto now = testClock().timestampAfter(-60);
    insertOrder("paid", 1000, now);
    insertOrder("shipped", 200, now);
    insertOrder("completed", 30, now);
    insertOrder("cancelled", 4000, now);
    insertOrder("pending", 50000, now);
    insertOrder("paid", 7, testClock().timestampAfter(-40 * 86400)); // older than 30 days
    insertOrder("paid", 600000, now, std::nullopt, std::nullopt, "AUD");  // not NZD
    auto late = insertOrder("cancelled", 90000, now);
    execSql("UPDATE orders SET paid_after_cancellation = TRUE WHERE id = ?", {late.id});
    const auto after = stats();
    EXPECT_EQ(delta(after, before, "recent_revenue"), 1230);
    EXPECT_EQ(delta(after, before, "total_revenue"), 1237);
    EXPECT_EQ(delta(after, before, "total_orders"), 8);
}

TEST(AdminStatsApi, CountsLeaveOutSoftDeletedUsers) {
    const auto before = stats();
    auto user = createUser("stats-user");
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    execSql("INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, created_at, updated_at) "
            "VALUES (?, ?, ?, 'trialing', 'manual', ?, ?)",
            {storefront::db::newId(), user.id, product.id, testClock().nowTimestamp(), testClock().nowTimestamp()});
    auto mid = stats();
    EXPECT_EQ(delta(mid, before, "total_users"), 1);
    EXPECT_EQ(delta(mid, before, "total_products"), 1);
    EXPECT_EQ(delta(mid, before, "active_subscriptions"), 1);
    execSql("UPDATE users SET email = NULL, deleted_at = ? WHERE id = ?", {testClock().nowTimestamp(), user.id});
    EXPECT_EQ(delta(stats(), before, "total_users"), 0);
}

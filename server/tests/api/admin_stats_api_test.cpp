// The admin dashboard's figures: counts without soft-deleted users, revenue from the payments ledger
// (money in less refunds and lost disputes), per currency, all time and the last 30 NZ days.
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
    for (const char* key : {"recent_revenue_by_currency", "total_revenue_by_currency"})
        for (const char* currency : {"NZD", "AUD", "USD"}) EXPECT_TRUE(j[key][currency].is_number_integer()) << key << currency;

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

TEST(AdminStatsApi, RevenueIsTheLedgersNetSumPerCurrency) {
    const auto before = stats();
    const auto now = testClock().timestampAfter(-60);
    auto entry = [](const std::string& kind, std::int64_t amount, const std::string& currency, const std::string& at) {
        const auto id = storefront::db::newId();
        execSql("INSERT INTO payment_ledger (id, entry_key, kind, amount, currency, provider, occurred_at) "
                "VALUES (?, ?, ?, " + std::to_string(amount) + ", ?, 'local', ?)",
                {id, "test:" + id, kind, currency, at});
    };
    entry("order_payment", 1000, "NZD", now);
    entry("subscription_payment", 230, "NZD", now);   // a renewal counts
    entry("refund", -100, "NZD", now);                // refunds come off
    entry("dispute_lost", -30, "NZD", now);           // so do lost disputes
    entry("order_payment", 7, "NZD", testClock().timestampAfter(-40 * 86400)); // older than 30 days
    entry("order_payment", 600000, "AUD", now);
    entry("subscription_payment", 4500, "USD", now);
    // Orders alone move no money: a status set by hand is not revenue.
    insertOrder("paid", 50000, now);
    const auto after = stats();
    EXPECT_EQ(delta(after, before, "recent_revenue"), 1100);
    EXPECT_EQ(delta(after, before, "total_revenue"), 1107);
    EXPECT_EQ(delta(after, before, "total_orders"), 1);
    auto perCurrency = [&](const char* key, const char* currency) {
        return after[key][currency].get<std::int64_t>() - before[key][currency].get<std::int64_t>();
    };
    EXPECT_EQ(perCurrency("recent_revenue_by_currency", "NZD"), 1100);
    EXPECT_EQ(perCurrency("total_revenue_by_currency", "NZD"), 1107);
    EXPECT_EQ(perCurrency("recent_revenue_by_currency", "AUD"), 600000);
    EXPECT_EQ(perCurrency("total_revenue_by_currency", "USD"), 4500);
    EXPECT_EQ(after["total_revenue"], after["total_revenue_by_currency"]["NZD"]);
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

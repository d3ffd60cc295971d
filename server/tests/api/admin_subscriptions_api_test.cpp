// Staff subscription list: filters, email search, paging, the user's email (null once the user is
// soft-deleted), product and plan names.
#include "api/admin_support.h"

#include <gtest/gtest.h>

#include <Poco/String.h>

using namespace testing_support;

namespace {

std::string insertSubscription(const std::string& userId, const std::string& productId, const std::string& status,
                               const std::string& createdAt, const std::optional<std::string>& planId = std::nullopt) {
    const auto id = storefront::db::newId();
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, "
                 "current_period_end, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'stripe', ?, ?, ?)")
            .bind(id, userId, productId, planId, status, std::string("2027-01-01T00:00:00.000Z"), createdAt, createdAt)
            .run();
    });
    return id;
}

} // namespace

TEST(AdminSubscriptionsApi, OnlyStaffAdmins) {
    expectStaffOnly("GET", "/api/v1/admin/subscriptions");
    EXPECT_EQ(getJson("/api/v1/admin/subscriptions", callers().admin).status, 200);
}

TEST(AdminSubscriptionsApi, FilteredSearchedAndPagedNewestFirst) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto user = createUser("subs-list");
    const auto tag = user.email.substr(0, user.email.find('@'));
    const auto a = insertSubscription(user.id, product.id, "cancelled", testClock().timestampAfter(-300));
    const auto b = insertSubscription(user.id, product.id, "active", testClock().timestampAfter(-200), planId);
    const auto c = insertSubscription(user.id, product.id, "expired", testClock().timestampAfter(-100));

    auto res = getJson("/api/v1/admin/subscriptions?q=" + Poco::toUpper(tag), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto j = res.json();
    EXPECT_EQ(j["total"], 3);
    ASSERT_EQ(j["items"].size(), 3u);
    EXPECT_EQ(j["items"][0]["id"], c);
    EXPECT_EQ(j["items"][2]["id"], a);
    auto row = j["items"][1];
    EXPECT_EQ(row["id"], b);
    EXPECT_EQ(row["user_id"], user.id);
    EXPECT_EQ(row["user_email"], user.email);
    EXPECT_EQ(row["product_id"], product.id);
    EXPECT_EQ(row["product_name"].get<std::string>().empty(), false);
    EXPECT_EQ(row["pricing_plan_id"], planId);
    EXPECT_FALSE(row["plan_name"].is_null());
    EXPECT_EQ(row["status"], "active");
    EXPECT_EQ(row["payment_provider"], "stripe");
    EXPECT_EQ(row["current_period_end"], "2027-01-01T00:00:00.000Z");
    EXPECT_EQ(row["cancel_at_period_end"], false);
    EXPECT_EQ(j["items"][0]["plan_name"], nullptr);

    auto active = getJson("/api/v1/admin/subscriptions?status=active&q=" + tag, callers().admin).json();
    EXPECT_EQ(active["total"], 1);
    EXPECT_EQ(active["items"][0]["id"], b);
    auto page = getJson("/api/v1/admin/subscriptions?q=" + tag + "&page_size=1&page=3", callers().admin).json();
    EXPECT_EQ(page["total"], 3);
    ASSERT_EQ(page["items"].size(), 1u);
    EXPECT_EQ(page["items"][0]["id"], a);

    // A soft-deleted user's address is gone: the row stays, with no email (the screen shows 'Unknown').
    execSql("UPDATE users SET email = NULL, deleted_at = ? WHERE id = ?", {testClock().nowTimestamp(), user.id});
    EXPECT_EQ(getJson("/api/v1/admin/subscriptions?q=" + tag, callers().admin).json()["total"], 0);
    auto all = getJson("/api/v1/admin/subscriptions?status=expired&page_size=200", callers().admin).json();
    bool found = false;
    for (const auto& item : all["items"])
        if (item["id"] == c) {
            found = true;
            EXPECT_EQ(item["user_email"], nullptr);
        }
    EXPECT_TRUE(found);

    for (const std::string q : {"status=paid", "status=Active", "page=-1", "page_size=0"})
        EXPECT_EQ(getJson("/api/v1/admin/subscriptions?" + q, callers().admin).status, 422) << q;
}

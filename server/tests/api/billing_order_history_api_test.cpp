// The customer's order history: the dashboard carries the newest orders and the count, and
// GET /api/v1/account/orders pages through them all. Neither grows with the history (the soak's
// memory growth came from a dashboard that answered every order a customer ever placed).
#include "api/billing_support.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace testing_support;

namespace {

constexpr int kHistoryOrders = 24; // more than the dashboard's 20: 23 paid and one unpaid

std::vector<std::string> idsOf(const nlohmann::json& orders) {
    std::vector<std::string> ids;
    for (const auto& o : orders) ids.push_back(o["id"]);
    return ids;
}

} // namespace

TEST(BillingOrderHistory, TheDashboardShowsTheNewestOrdersAndTheCountAndTheRestArePaged) {
    auto hardware = createHardware(kHistoryOrders + 5);
    auto buyer = newBuyer("history");
    auto other = newBuyer("other");
    for (int i = 0; i < kHistoryOrders - 1; ++i) {
        auto started = startCheckout(buyer, {{"productSlug", hardware.slug}});
        ASSERT_EQ(started.status, 200) << started.body;
        ASSERT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    }
    // An unpaid checkout is an order too (pending, the newest), and another customer's order is not
    // this one's.
    ASSERT_EQ(startCheckout(buyer, {{"productSlug", hardware.slug}}).status, 200);
    auto theirs = startCheckout(other, {{"productSlug", hardware.slug}});
    ASSERT_EQ(pressButton(theirs.json()["url"], "pay").status, 303);

    auto dash = getJson("/api/v1/account/dashboard", buyer.headers());
    ASSERT_EQ(dash.status, 200) << dash.body;
    EXPECT_EQ(dash.json()["orders"].size(), 20u);
    EXPECT_EQ(dash.json()["orders_total"], kHistoryOrders);
    auto newest = idsOf(dash.json()["orders"]);
    EXPECT_EQ(dash.json()["orders"][0]["status"], "pending");

    // The first page of the history is the dashboard's list, in the same order.
    auto first = getJson("/api/v1/account/orders", buyer.headers());
    ASSERT_EQ(first.status, 200) << first.body;
    EXPECT_EQ(first.json()["total"], kHistoryOrders);
    EXPECT_EQ(first.json()["page"], 1);
    EXPECT_EQ(first.json()["page_size"], 20);
    EXPECT_EQ(idsOf(first.json()["items"]), newest);
    EXPECT_EQ(first.json()["items"][0]["items"].size(), 1u);

    // Pages of 10 cover every order once, newest first, and stop.
    std::vector<std::string> all;
    for (int page = 1; page <= 3; ++page) {
        auto r = getJson("/api/v1/account/orders?page=" + std::to_string(page) + "&page_size=10", buyer.headers());
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.json()["total"], kHistoryOrders);
        for (const auto& id : idsOf(r.json()["items"])) all.push_back(id);
    }
    EXPECT_EQ(all.size(), static_cast<std::size_t>(kHistoryOrders));
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
    EXPECT_EQ(std::vector<std::string>(all.begin(), all.begin() + 20), newest);
    EXPECT_TRUE(getJson("/api/v1/account/orders?page=4&page_size=10", buyer.headers()).json()["items"].empty());

    // The other customer sees their one order only.
    auto others = getJson("/api/v1/account/orders", other.headers()).json();
    EXPECT_EQ(others["total"], 1);
    EXPECT_EQ(others["items"].size(), 1u);
    EXPECT_EQ(getJson("/api/v1/account/dashboard", other.headers()).json()["orders_total"], 1);
}

TEST(BillingOrderHistory, NeedsASignedInUserAndAValidPage) {
    EXPECT_EQ(getJson("/api/v1/account/orders").status, 401);
    auto buyer = newBuyer("pager");
    for (const char* bad : {"page=0", "page=x", "page_size=0", "page_size=201", "page_size=-5"}) {
        auto r = getJson(std::string("/api/v1/account/orders?") + bad, buyer.headers());
        EXPECT_EQ(r.status, 422) << bad << " " << r.body;
        EXPECT_EQ(r.json()["code"], "validation_failed") << bad;
    }
    auto empty = getJson("/api/v1/account/orders", buyer.headers());
    ASSERT_EQ(empty.status, 200);
    EXPECT_EQ(empty.json()["total"], 0);
    EXPECT_TRUE(empty.json()["items"].empty());
    EXPECT_EQ(getJson("/api/v1/account/dashboard", buyer.headers()).json()["orders_total"], 0);
}

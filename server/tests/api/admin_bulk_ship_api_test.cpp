// Bulk "Mark as shipped": each order its own audited transition (history row, audit entry,
// customer mail) exactly like PATCH {status: shipped}; only paid orders ship; the answer says
// which shipped and why the others did not; a bad body is 422 and ships nothing.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string bulkAgo(int secondsAgo) { return testClock().timestampAfter(-secondsAgo); }

HttpResult postBulkShip(const nlohmann::json& body, const Headers& h = callers().admin) {
    return postJson("/api/v1/admin/orders/bulk-ship", body, h);
}

std::int64_t bulkShippedMails(const std::string& email) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ? AND kind = 'order_shipped'", {email});
}

std::string bulkOrderStatus(const std::string& orderId) { return textColumn("SELECT status FROM orders WHERE id = ?", {orderId}).at(0); }

} // namespace

TEST(AdminBulkShipApi, OnlyStaffAdmins) {
    auto order = insertOrder("paid", 1000, bulkAgo(5));
    expectStaffOnly("POST", "/api/v1/admin/orders/bulk-ship", {{"order_ids", {order.id}}});
    EXPECT_EQ(bulkOrderStatus(order.id), "paid");
    EXPECT_EQ(auditCount("order.status_changed", order.id), 0);
}

TEST(AdminBulkShipApi, EachPaidOrderShipsOnItsOwnAndTheOthersSayWhyNot) {
    const auto tag = unique("bulk-");
    const auto email1 = tag + "-1@example.nz", email2 = tag + "-2@example.nz", email3 = tag + "-3@example.nz";
    auto paid1 = insertOrder("paid", 1000, bulkAgo(50), email1);
    auto paid2 = insertOrder("paid", 2000, bulkAgo(40), email2);
    auto pending = insertOrder("pending", 3000, bulkAgo(30), email3);
    auto cancelled = insertOrder("cancelled", 3000, bulkAgo(20), email3);
    const auto unknown = storefront::db::newId();

    auto res = postBulkShip({{"order_ids", {paid1.id, pending.id, unknown, paid2.id, cancelled.id, paid1.id}}, {"carrier", " NZ Post "}});
    ASSERT_EQ(res.status, 200) << res.body;
    auto results = res.json()["results"];
    ASSERT_EQ(results.size(), 5u) << results.dump(); // paid1 once
    EXPECT_EQ(res.json()["shipped"], 2);
    EXPECT_EQ(res.json()["failed"], 3);
    EXPECT_EQ(results[0], (nlohmann::json{{"id", paid1.id}, {"order_number", paid1.orderNumber}, {"ok", true}}));
    EXPECT_EQ(results[1]["id"], pending.id);
    EXPECT_EQ(results[1]["order_number"], pending.orderNumber);
    EXPECT_EQ(results[1]["ok"], false);
    EXPECT_EQ(results[1]["code"], "order_not_paid");
    EXPECT_EQ(results[1]["message"], "Not paid: cannot ship.");
    EXPECT_EQ(results[2]["id"], unknown);
    EXPECT_TRUE(results[2]["order_number"].is_null());
    EXPECT_EQ(results[2]["code"], "order_not_found");
    EXPECT_EQ(results[3]["id"], paid2.id);
    EXPECT_EQ(results[3]["ok"], true);
    EXPECT_EQ(results[4]["code"], "order_not_shippable");
    EXPECT_EQ(results[4]["message"], "Cancelled: cannot ship.");

    for (const auto& [order, email] : {std::pair{paid1, email1}, std::pair{paid2, email2}}) {
        EXPECT_EQ(bulkOrderStatus(order.id), "shipped");
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ? AND from_status = 'paid' "
                            "AND to_status = 'shipped' AND source = 'staff' AND actor_email = ?",
                            {order.id, callers().adminEmail}),
                  1);
        EXPECT_EQ(auditCount("order.status_changed", order.id), 1);
        EXPECT_EQ(bulkShippedMails(email), 1);
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND carrier = 'NZ Post' AND tracking_number IS NULL", {order.id}), 1);
    }
    EXPECT_EQ(bulkOrderStatus(pending.id), "pending");
    EXPECT_EQ(bulkOrderStatus(cancelled.id), "cancelled");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id IN (?, ?)", {pending.id, cancelled.id}), 0);
    EXPECT_EQ(bulkShippedMails(email3), 0);

    // Again: the shipped ones are reported as shipped already, and nothing is mailed twice.
    auto again = postBulkShip({{"order_ids", {paid1.id}}});
    ASSERT_EQ(again.status, 200);
    EXPECT_EQ(again.json()["results"][0]["code"], "order_already_shipped");
    EXPECT_EQ(again.json()["results"][0]["message"], "Already shipped.");
    EXPECT_EQ(bulkShippedMails(email1), 1);
    EXPECT_EQ(auditCount("order.status_changed", paid1.id), 1);
}

TEST(AdminBulkShipApi, BadBodiesAre4xxAndShipNothing) {
    auto order = insertOrder("paid", 1000, bulkAgo(5), unique("badbulk-") + "@example.nz");
    std::vector<std::string> tooMany(101, order.id);
    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"order_ids", nullptr}},
                             nlohmann::json{{"order_ids", order.id}}, nlohmann::json{{"order_ids", nlohmann::json::array()}},
                             nlohmann::json{{"order_ids", tooMany}}, nlohmann::json{{"order_ids", {order.id, 7}}},
                             nlohmann::json{{"order_ids", {order.id, "ORD-1"}}},
                             nlohmann::json{{"order_ids", {order.id}}, {"carrier", 5}},
                             nlohmann::json{{"order_ids", {order.id}}, {"carrier", std::string(101, 'c')}},
                             nlohmann::json{{"order_ids", {order.id}}, {"tracking_number", "NZ123"}}}) {
        auto res = postBulkShip(body);
        EXPECT_EQ(res.status, 422) << body.dump().substr(0, 200) << " " << res.body;
        EXPECT_EQ(res.json()["code"], "validation_failed");
    }
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/orders/bulk-ship", "not json", "application/json", callers().admin).status, 400);
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/orders/bulk-ship", "order_ids=1", "text/plain", callers().admin).status, 415);
    EXPECT_EQ(bulkOrderStatus(order.id), "paid");
    EXPECT_EQ(auditCount("order.status_changed", order.id), 0);
}

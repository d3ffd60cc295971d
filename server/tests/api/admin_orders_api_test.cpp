// Staff order routes: the list (filters, search, paging), one order with items, history and late
// payments, and status changes with their history rows, audit entries and stock rules.
#include "api/admin_support.h"

#include <gtest/gtest.h>

#include <Poco/String.h>

#include <thread>

using namespace testing_support;

namespace {

std::string at(int secondsAgo) { return testClock().timestampAfter(-secondsAgo); }

std::int64_t historyCount(const std::string& orderId) {
    return countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ?", {orderId});
}

HttpResult setStatus(const std::string& orderId, const nlohmann::json& body, const Headers& h = callers().admin) {
    return patchJson("/api/v1/admin/orders/" + orderId, body, h);
}

} // namespace

TEST(AdminOrdersApi, OnlyStaffAdmins) {
    auto order = insertOrder("pending", 1000, at(5));
    expectStaffOnly("GET", "/api/v1/admin/orders");
    expectStaffOnly("GET", "/api/v1/admin/orders/" + order.id);
    expectStaffOnly("PATCH", "/api/v1/admin/orders/" + order.id, {{"status", "paid"}});
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'pending'", {order.id}), 1);
    EXPECT_EQ(historyCount(order.id), 0);
    EXPECT_EQ(getJson("/api/v1/admin/orders", callers().admin).status, 200);
}

TEST(AdminOrdersApi, TheListIsFilteredSearchedAndPagedNewestFirst) {
    const auto tag = unique("shopper-");
    const auto email = tag + "@Example.nz";
    auto oldest = insertOrder("paid", 1000, at(300), email);
    auto middle = insertOrder("shipped", 2000, at(200), email);
    auto newest = insertOrder("pending", 3000, at(100), email);
    insertOrder("paid", 4000, at(50), unique("someone-") + "@example.nz");

    auto res = getJson("/api/v1/admin/orders?q=" + Poco::toUpper(tag), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto j = res.json();
    EXPECT_EQ(j["total"], 3);
    EXPECT_EQ(j["page_size"], 50);
    ASSERT_EQ(j["items"].size(), 3u);
    EXPECT_EQ(j["items"][0]["id"], newest.id);
    EXPECT_EQ(j["items"][2]["id"], oldest.id);
    auto row = j["items"][1];
    EXPECT_EQ(row["order_number"], middle.orderNumber);
    EXPECT_EQ(row["customer_email"], email);
    EXPECT_EQ(row["user_id"], nullptr);
    EXPECT_EQ(row["status"], "shipped");
    EXPECT_EQ(row["total_amount"], 2000);
    EXPECT_EQ(row["currency"], "NZD");
    EXPECT_EQ(row["paid_after_cancellation"], false);
    EXPECT_FALSE(row["created_at"].get<std::string>().empty());

    // A whole address (any case) is looked up exactly.
    auto exact = getJson("/api/v1/admin/orders?q=" + Poco::toUpper(tag) + "%40example.NZ", callers().admin).json();
    EXPECT_EQ(exact["total"], 3);
    EXPECT_EQ(getJson("/api/v1/admin/orders?q=" + tag + "%40example", callers().admin).json()["total"], 0);

    auto paid = getJson("/api/v1/admin/orders?status=paid&q=" + tag, callers().admin).json();
    EXPECT_EQ(paid["total"], 1);
    EXPECT_EQ(paid["items"][0]["id"], oldest.id);

    auto byNumber = getJson("/api/v1/admin/orders?q=" + Poco::toLower(middle.orderNumber), callers().admin).json();
    EXPECT_EQ(byNumber["total"], 1);
    EXPECT_EQ(byNumber["items"][0]["id"], middle.id);

    auto page2 = getJson("/api/v1/admin/orders?q=" + tag + "&page_size=2&page=2", callers().admin).json();
    EXPECT_EQ(page2["total"], 3);
    ASSERT_EQ(page2["items"].size(), 1u);
    EXPECT_EQ(page2["items"][0]["id"], oldest.id);

    execSql("UPDATE orders SET status = 'cancelled', paid_after_cancellation = TRUE WHERE id = ?", {newest.id});
    auto late = getJson("/api/v1/admin/orders?status=paid_after_cancellation&q=" + tag, callers().admin).json();
    EXPECT_EQ(late["total"], 1);
    EXPECT_EQ(late["items"][0]["paid_after_cancellation"], true);

    // LIKE metacharacters are literal; bad filters and paging are 422.
    EXPECT_EQ(getJson("/api/v1/admin/orders?q=%25" + tag, callers().admin).json()["total"], 0);
    for (const std::string& q : std::vector<std::string>{"status=disputed", "disputed=yes", "page=0", "page_size=201", "page=x", "q=" + std::string(300, 'a')}) {
        auto bad = getJson("/api/v1/admin/orders?" + q, callers().admin);
        EXPECT_EQ(bad.status, 422) << q;
    }
}

TEST(AdminOrdersApi, AStatusChangeIsHistoryAndAuditInOneGo) {
    auto order = insertOrder("pending", 1500, at(10), unique("hist-") + "@example.nz");
    // Mark as paid: money received outside the payment provider needs its reference.
    auto unreferenced = setStatus(order.id, {{"status", "paid"}});
    ASSERT_EQ(unreferenced.status, 422) << unreferenced.body;
    EXPECT_TRUE(unreferenced.json()["fields"].contains("payment_reference"));
    EXPECT_EQ(historyCount(order.id), 0);
    // Goods to send and no address on file (the customer left the payment page): where they go.
    auto unaddressed = setStatus(order.id, {{"status", "paid"}, {"payment_reference", "BNZ transfer 0042"}});
    ASSERT_EQ(unaddressed.status, 422) << unaddressed.body;
    EXPECT_EQ(unaddressed.json()["fields"]["shipping_address"], "Enter the shipping address: this order has goods to send.");
    auto badAddress = setStatus(order.id, {{"status", "paid"},
                                           {"payment_reference", "BNZ transfer 0042"},
                                           {"shipping_address", {{"name", "Aroha Ngata"}, {"line1", "1 Queen St"}, {"city", "Auckland"},
                                                                 {"postal_code", "10101"}, {"country", "FR"}}}});
    ASSERT_EQ(badAddress.status, 422) << badAddress.body;
    EXPECT_EQ(badAddress.json()["fields"]["shipping_address.country"], "We ship to New Zealand, Australia only.");
    EXPECT_EQ(badAddress.json()["fields"]["shipping_address.postal_code"], nullptr); // not a NZ/AU postcode rule for FR
    EXPECT_EQ(historyCount(order.id), 0);
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {order.id}).at(0), "pending");
    auto res = setStatus(order.id, {{"status", "paid"},
                                    {"payment_reference", "BNZ transfer 0042"},
                                    {"shipping_address", {{"name", "Aroha Ngata"}, {"line1", "1 Queen St"}, {"city", "Auckland"},
                                                          {"postal_code", "1010"}, {"country", "nz"}}}});
    ASSERT_EQ(res.status, 200) << res.body;
    auto o = res.json()["order"];
    EXPECT_EQ(o["status"], "paid");
    EXPECT_EQ(o["shipping_address"]["city"], "Auckland");
    EXPECT_EQ(o["shipping_address"]["country"], "NZ");
    EXPECT_EQ(o["shipping_address"]["phone"], nullptr);
    ASSERT_EQ(o["items"].size(), 1u);
    EXPECT_EQ(o["items"][0]["product_name"], "Arranged item");
    EXPECT_EQ(o["items"][0]["unit_amount"], 1500);
    ASSERT_EQ(o["history"].size(), 1u);
    EXPECT_EQ(o["history"][0]["from_status"], "pending");
    EXPECT_EQ(o["history"][0]["to_status"], "paid");
    EXPECT_EQ(o["history"][0]["source"], "staff");
    EXPECT_EQ(o["history"][0]["actor_email"], callers().adminEmail);
    EXPECT_EQ(o["history"][0]["note"], "Marked as paid: payment received outside the payment provider (reference BNZ transfer 0042)");
    // Like any payment: in the ledger as a manual payment, with its tax invoice.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ? AND kind = 'manual_payment' AND amount = 1500 "
                        "AND provider_id = 'BNZ transfer 0042'",
                        {order.id}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'invoice' AND total_amount = 1500",
                        {order.id}),
              1);
    EXPECT_EQ(o["late_payments"], nlohmann::json::array());
    EXPECT_EQ(auditCount("order.status_changed", order.id), 1);
    auto after = textColumn("SELECT after_json FROM audit_log WHERE action = 'order.status_changed' AND target_id = ?", {order.id});
    EXPECT_EQ(nlohmann::json::parse(after.at(0))["status"], "paid");

    ASSERT_EQ(setStatus(order.id, {{"status", "shipped"}, {"note", "Courier NZ 123"}}).status, 200);
    auto one = getJson("/api/v1/admin/orders/" + order.id, callers().admin);
    ASSERT_EQ(one.status, 200);
    auto history = one.json()["order"]["history"];
    ASSERT_EQ(history.size(), 2u);
    EXPECT_EQ(history[1]["from_status"], "paid");
    EXPECT_EQ(history[1]["to_status"], "shipped");
    EXPECT_EQ(history[1]["note"], "Courier NZ 123");

    // The same status again changes nothing.
    ASSERT_EQ(setStatus(order.id, {{"status", "shipped"}}).status, 200);
    EXPECT_EQ(historyCount(order.id), 2);
    EXPECT_EQ(auditCount("order.status_changed", order.id), 2);
}

TEST(AdminOrdersApi, BadStatusChangesAre4xxAndChangeNothing) {
    auto order = insertOrder("pending", 1500, at(10));
    for (const auto& body : {nlohmann::json{{"status", "refunded"}}, nlohmann::json{{"status", 3}}, nlohmann::json::object(),
                             nlohmann::json{{"status", nullptr}}, nlohmann::json{{"status", "paid"}, {"note", 7}},
                             nlohmann::json{{"status", "paid"}, {"note", std::string(501, 'n')}}}) {
        auto res = setStatus(order.id, body);
        EXPECT_EQ(res.status, 422) << body.dump();
    }
    EXPECT_EQ(sendRaw("PATCH", "/api/v1/admin/orders/" + order.id, "not json", "application/json", callers().admin).status, 400);
    EXPECT_EQ(setStatus("not-a-uuid", {{"status", "paid"}}).status, 404);
    auto unknown = setStatus(storefront::db::newId(), {{"status", "paid"}});
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "order_not_found");
    EXPECT_EQ(getJson("/api/v1/admin/orders/" + storefront::db::newId(), callers().admin).status, 404);
    EXPECT_EQ(getJson("/api/v1/admin/orders/1", callers().admin).status, 404);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'pending'", {order.id}), 1);
    EXPECT_EQ(historyCount(order.id), 0);
    EXPECT_EQ(auditCount("order.status_changed", order.id), 0);
}

TEST(AdminOrdersApi, ConcurrentChangesAllLandInTheHistoryInOrder) {
    auto order = insertOrder("pending", 1500, at(10));
    execSql("UPDATE orders SET shipping_name = 'Aroha', shipping_line1 = '1 Queen St', shipping_city = 'Auckland', "
            "shipping_postal_code = '1010', shipping_country = 'NZ' WHERE id = ?",
            {order.id});
    // Each change is checked against the lifecycle table under the order's lock: whichever order
    // they land in, each is applied (200) or refused as a move the table does not hold (409).
    const std::vector<nlohmann::json> changes = {{{"status", "paid"}, {"payment_reference", "BNZ 1"}},
                                                 {{"status", "shipped"}},
                                                 {{"status", "completed"}},
                                                 {{"status", "cancelled"}},
                                                 {{"status", "pending"}},
                                                 {{"status", "paid"}, {"payment_reference", "BNZ 2"}}};
    std::vector<std::thread> threads;
    std::vector<int> codes(changes.size());
    for (std::size_t i = 0; i < changes.size(); ++i)
        threads.emplace_back([&, i] { codes[i] = setStatus(order.id, changes[i]).status; });
    for (auto& t : threads) t.join();
    int applied = 0;
    for (auto code : codes) {
        EXPECT_TRUE(code == 200 || code == 409) << code;
        applied += code == 200;
    }
    EXPECT_GE(applied, 1);
    auto history = getJson("/api/v1/admin/orders/" + order.id, callers().admin).json()["order"]["history"];
    // Every change that changed something is there, each starting where the one before ended.
    ASSERT_GE(history.size(), 1u);
    EXPECT_EQ(history[0]["from_status"], "pending");
    for (std::size_t i = 1; i < history.size(); ++i) EXPECT_EQ(history[i]["from_status"], history[i - 1]["to_status"]);
    EXPECT_EQ(static_cast<std::int64_t>(history.size()), auditCount("order.status_changed", order.id));
    auto final = textColumn("SELECT status FROM orders WHERE id = ?", {order.id});
    EXPECT_EQ(history.back()["to_status"], final.at(0));
}

TEST(AdminOrdersApi, CancellingGivesTheReservedStockBackExactlyOnce) {
    auto product = createHardware(5);
    auto buyer = newBuyer("bo-cancel");
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", 2}});
    ASSERT_EQ(started.status, 200) << started.body;
    const auto url = started.json()["url"].get<std::string>();
    EXPECT_EQ(stockOf(product.id), 3);
    const auto orderId = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE product_id = ?", {product.id}).at(0);

    ASSERT_EQ(setStatus(orderId, {{"status", "cancelled"}}).status, 200);
    EXPECT_EQ(stockOf(product.id), 5);
    EXPECT_EQ(textColumn("SELECT status FROM checkout_sessions WHERE order_id = ?", {orderId}).at(0), "expired");
    // The buyer can no longer pay at the (local) provider, and the expiry job has nothing to do.
    EXPECT_NE(pressButton(url, "pay").status, 200);
    EXPECT_EQ(stockOf(product.id), 5);
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {orderId}).at(0), "cancelled");

    // Cancelled again changes nothing; no way leads back from a cancellation nothing paid for.
    ASSERT_EQ(setStatus(orderId, {{"status", "cancelled"}}).status, 200);
    EXPECT_EQ(stockOf(product.id), 5);
    for (const auto& to : {"pending", "paid"}) {
        auto refused = setStatus(orderId, std::string(to) == "paid" ? nlohmann::json{{"status", to}, {"payment_reference", "BNZ 3"}}
                                                                   : nlohmann::json{{"status", to}});
        EXPECT_EQ(refused.status, 409) << refused.body;
        EXPECT_EQ(refused.json()["code"], "invalid_transition");
        EXPECT_EQ(refused.json()["allowed"], nlohmann::json::array());
    }
    EXPECT_EQ(stockOf(product.id), 5);
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {orderId}).at(0), "cancelled");
}

// Staff set or correct where the goods go while the order is pending or paid; never after it
// shipped, never for a digital order; each change a history row and an audit entry.
TEST(AdminOrdersApi, StaffSetAndCorrectTheShippingAddressUntilItShips) {
    auto order = insertOrder("paid", 4900, at(20), unique("addr-") + "@example.nz");
    const auto path = "/api/v1/admin/orders/" + order.id + "/shipping-address";
    const nlohmann::json address = {{"name", "Aroha Ngata"}, {"line1", "1 Queen St"}, {"city", "Auckland"},
                                    {"postal_code", "1010"}, {"country", "NZ"}, {"phone", "021 555 0101"}};
    // Bad input: a clear error per member, nothing changed.
    auto missing = sendJson(env().port, "PUT", path, nlohmann::json::object(), callers().admin);
    ASSERT_EQ(missing.status, 422) << missing.body;
    EXPECT_EQ(missing.json()["fields"]["shipping_address"], "This field is required.");
    auto bad = sendJson(env().port, "PUT", path,
                        {{"shipping_address", {{"name", ""}, {"line1", 7}, {"city", "Auckland"}, {"postal_code", "10"}, {"country", "NZ"}}}},
                        callers().admin);
    ASSERT_EQ(bad.status, 422) << bad.body;
    EXPECT_EQ(bad.json()["fields"]["shipping_address.name"], "This field is required.");
    EXPECT_EQ(bad.json()["fields"]["shipping_address.line1"], "Must be text.");
    EXPECT_EQ(bad.json()["fields"]["shipping_address.postal_code"], "A New Zealand postcode is four digits.");
    EXPECT_EQ(historyCount(order.id), 0);
    EXPECT_EQ(auditCount("order.shipping_address_changed", order.id), 0);

    auto added = sendJson(env().port, "PUT", path, {{"shipping_address", address}}, callers().admin);
    ASSERT_EQ(added.status, 200) << added.body;
    auto o = added.json()["order"];
    EXPECT_EQ(o["status"], "paid");
    EXPECT_EQ(o["shipping_address"]["line1"], "1 Queen St");
    EXPECT_EQ(o["shipping_address"]["phone"], "021 555 0101");
    ASSERT_EQ(o["history"].size(), 1u);
    EXPECT_EQ(o["history"][0]["from_status"], nullptr);
    EXPECT_EQ(o["history"][0]["to_status"], "paid");
    EXPECT_EQ(o["history"][0]["note"], "Shipping address added: Aroha Ngata, 1 Queen St, Auckland 1010, New Zealand, Phone: 021 555 0101");
    EXPECT_EQ(auditCount("order.shipping_address_changed", order.id), 1);
    // The same again changes nothing; a correction is its own row.
    ASSERT_EQ(sendJson(env().port, "PUT", path, {{"shipping_address", address}}, callers().admin).status, 200);
    EXPECT_EQ(historyCount(order.id), 1);
    auto corrected = address;
    corrected["line1"] = "2 Queen St";
    auto fixed = sendJson(env().port, "PUT", path, {{"shipping_address", corrected}}, callers().admin);
    ASSERT_EQ(fixed.status, 200) << fixed.body;
    EXPECT_EQ(fixed.json()["order"]["shipping_address"]["line1"], "2 Queen St");
    EXPECT_EQ(historyCount(order.id), 2);
    EXPECT_EQ(auditCount("order.shipping_address_changed", order.id), 2);

    // Shipped: the address is what the parcel says.
    ASSERT_EQ(setStatus(order.id, {{"status", "shipped"}}).status, 200);
    auto late = sendJson(env().port, "PUT", path, {{"shipping_address", address}}, callers().admin);
    ASSERT_EQ(late.status, 409) << late.body;
    EXPECT_EQ(late.json()["code"], "address_locked");
    EXPECT_EQ(late.json()["message"], "This order has shipped: its shipping address can no longer change.");
    EXPECT_EQ(textColumn("SELECT shipping_line1 FROM orders WHERE id = ?", {order.id}).at(0), "2 Queen St");

    // A digital order ships nothing.
    auto digital = insertOrder("paid", 1500, at(20), unique("digi-") + "@example.nz", std::nullopt, "NZD", false);
    auto refused = sendJson(env().port, "PUT", "/api/v1/admin/orders/" + digital.id + "/shipping-address",
                            {{"shipping_address", address}}, callers().admin);
    ASSERT_EQ(refused.status, 409) << refused.body;
    EXPECT_EQ(refused.json()["code"], "nothing_to_ship");
    // Nor does Mark as paid of a digital order take one: 422, and it stays unpaid.
    auto unpaidDigital = insertOrder("pending", 1500, at(20), unique("digi-") + "@example.nz", std::nullopt, "NZD", false);
    auto withAddress = setStatus(unpaidDigital.id, {{"status", "paid"}, {"payment_reference", "BNZ 0099"}, {"shipping_address", address}});
    ASSERT_EQ(withAddress.status, 422) << withAddress.body;
    EXPECT_EQ(withAddress.json()["fields"]["shipping_address"], "Digital order: nothing to ship, so no shipping address.");
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {unpaidDigital.id}).at(0), "pending");
    EXPECT_EQ(historyCount(unpaidDigital.id), 0);
    // A shipping address without Mark as paid: 422, nothing changed.
    auto stray = setStatus(unpaidDigital.id, {{"status", "cancelled"}, {"shipping_address", address}});
    ASSERT_EQ(stray.status, 422) << stray.body;
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {unpaidDigital.id}).at(0), "pending");
}

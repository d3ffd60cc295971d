// Issue 24: the customer's unpaid orders. Order History (the dashboard and GET /api/v1/account/orders)
// lists every order, pending ones with their checkout (open: the way back to it; expired; abandoned),
// and Total Orders counts what it lists. POST /api/v1/account/orders/{id}/cancel is the staff's
// cancellation path: the stock comes back exactly once (a second cancel, a racing cancel or payment),
// and money that still arrives afterwards is a late payment. "Manage billing" is offered to customers
// the provider knows.
#include "api/admin_support.h"
#include "api/fake_stripe.h"

#include <gtest/gtest.h>

#include <thread>

using namespace testing_support;

namespace {

HttpResult cancelOrder(const Session& buyer, const std::string& orderId, int port = 0) {
    return sendJson(port ? port : env().port, "POST", "/api/v1/account/orders/" + orderId + "/cancel", nlohmann::json::object(),
                    buyer.headers());
}

std::string orderOfCheckout(const std::string& checkoutId) {
    return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
}

nlohmann::json dashboardOf(const Session& buyer) {
    auto r = getJson("/api/v1/account/dashboard", buyer.headers());
    if (r.status != 200) throw std::runtime_error("dashboard: " + r.body);
    return r.json();
}

nlohmann::json historyOf(const Session& buyer) {
    auto r = getJson("/api/v1/account/orders", buyer.headers());
    if (r.status != 200) throw std::runtime_error("orders: " + r.body);
    return r.json();
}

nlohmann::json findOrder(const nlohmann::json& orders, const std::string& id) {
    for (const auto& o : orders)
        if (o["id"] == id) return o;
    return nullptr;
}

} // namespace

TEST(BillingUnpaidOrders, PendingOrdersAreListedWithTheWayBackToTheirCheckoutAndCounted) {
    auto hardware = createHardware(5);
    auto buyer = newBuyer("unpaid");
    EXPECT_EQ(dashboardOf(buyer)["billing_portal"], false); // the provider does not know them yet

    auto paid = startCheckout(buyer, {{"productSlug", hardware.slug}});
    ASSERT_EQ(paid.status, 200) << paid.body;
    ASSERT_EQ(pressButton(paid.json()["url"], "pay").status, 303);
    auto unpaid = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}});
    ASSERT_EQ(unpaid.status, 200) << unpaid.body;
    const std::string unpaidUrl = unpaid.json()["url"];
    const auto unpaidId = orderOfCheckout(unpaid.json()["checkoutId"]);
    EXPECT_EQ(stockOf(hardware.id), 2);

    auto dash = dashboardOf(buyer);
    EXPECT_EQ(dash["billing_portal"], true);
    ASSERT_EQ(dash["orders"].size(), 2u) << dash.dump();
    EXPECT_EQ(dash["orders_total"], 2);
    const auto& pending = dash["orders"][0]; // newest first
    EXPECT_EQ(pending["id"], unpaidId);
    EXPECT_EQ(pending["status"], "pending");
    EXPECT_EQ(pending["checkout_state"], "open");
    EXPECT_EQ(pending["checkout_open"], true);
    EXPECT_EQ(pending["checkout_url"], unpaidUrl);
    EXPECT_TRUE(pending["checkout_expires_at"].is_string());
    EXPECT_EQ(pending["total_amount"], 5000);
    const auto& done = dash["orders"][1];
    EXPECT_EQ(done["status"], "paid");
    EXPECT_TRUE(done["checkout_state"].is_null());
    EXPECT_EQ(done["checkout_open"], false);
    EXPECT_TRUE(done["checkout_url"].is_null());
    EXPECT_TRUE(done["checkout_expires_at"].is_null());

    // The paged history shows the same, and counts what it lists.
    auto history = historyOf(buyer);
    EXPECT_EQ(history["total"], 2);
    ASSERT_EQ(history["items"].size(), 2u);
    EXPECT_EQ(history["items"][0], pending);

    // "Complete payment": the same checkout, paid from the history's link.
    ASSERT_EQ(pressButton(unpaidUrl, "pay").status, 303);
    auto after = findOrder(historyOf(buyer)["items"], unpaidId);
    EXPECT_EQ(after["status"], "paid");
    EXPECT_TRUE(after["checkout_url"].is_null());
    EXPECT_EQ(stockOf(hardware.id), 2);
    // Paid orders can no longer be cancelled by the customer.
    auto refused = cancelOrder(buyer, unpaidId);
    EXPECT_EQ(refused.status, 409) << refused.body;
    EXPECT_EQ(refused.json()["code"], "order_not_cancellable");
    EXPECT_EQ(findOrder(historyOf(buyer)["items"], unpaidId)["status"], "paid");
    EXPECT_EQ(stockOf(hardware.id), 2);
}

TEST(BillingUnpaidOrders, CancelGivesTheStockBackOnceAndClosesTheCheckout) {
    auto hardware = createHardware(5);
    auto buyer = newBuyer("canceller");
    auto started = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}});
    ASSERT_EQ(started.status, 200) << started.body;
    const auto orderId = orderOfCheckout(started.json()["checkoutId"]);
    EXPECT_EQ(stockOf(hardware.id), 3);

    auto cancelled = cancelOrder(buyer, orderId);
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    EXPECT_EQ(cancelled.json()["id"], orderId);
    EXPECT_EQ(cancelled.json()["status"], "cancelled");
    EXPECT_EQ(cancelled.json()["checkout_state"], "abandoned");
    EXPECT_EQ(cancelled.json()["checkout_open"], false);
    EXPECT_TRUE(cancelled.json()["checkout_url"].is_null());
    EXPECT_EQ(stockOf(hardware.id), 5);
    EXPECT_EQ(checkoutStatus(started.json()["checkoutId"]), "expired");

    // Twice, and all at once: the same answer, the stock given back once.
    std::vector<std::thread> racers;
    std::vector<int> codes(4);
    for (int i = 0; i < 4; ++i) racers.emplace_back([&, i] { codes[i] = cancelOrder(buyer, orderId).status; });
    for (auto& t : racers) t.join();
    for (int code : codes) EXPECT_EQ(code, 200);
    EXPECT_EQ(stockOf(hardware.id), 5);
    // The closed checkout can no longer be paid.
    ASSERT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    EXPECT_EQ(orderStatusOfCheckout(started.json()["checkoutId"]), "cancelled");
    EXPECT_EQ(stockOf(hardware.id), 5);

    // It stays in the history, counted, and the change is on record with the customer as its actor.
    auto dash = dashboardOf(buyer);
    EXPECT_EQ(dash["orders_total"], 1);
    EXPECT_EQ(dash["orders"][0]["status"], "cancelled");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'order.cancelled_by_customer' AND target_id = ?", {orderId}),
              1);
    auto history = getJson("/api/v1/admin/orders/" + orderId, callers().admin).json()["order"]["history"];
    ASSERT_EQ(history.size(), 2u) << history.dump();
    EXPECT_EQ(history[1]["to_status"], "cancelled");
    EXPECT_EQ(history[1]["actor_email"], textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0));
    EXPECT_EQ(history[1]["source"], "customer");
}

TEST(BillingUnpaidOrders, ACancelRacingThePaymentEndsOneWayOnly) {
    auto hardware = createHardware(4);
    auto buyer = newBuyer("racer");
    for (int round = 0; round < 3; ++round) {
        auto started = startCheckout(buyer, {{"productSlug", hardware.slug}});
        ASSERT_EQ(started.status, 200) << started.body;
        const auto orderId = orderOfCheckout(started.json()["checkoutId"]);
        const auto before = stockOf(hardware.id);
        int cancelCode = 0;
        std::thread canceller([&] { cancelCode = cancelOrder(buyer, orderId).status; });
        pressButton(started.json()["url"], "pay");
        canceller.join();
        const auto status = orderStatusOfCheckout(started.json()["checkoutId"]);
        if (status == "paid") {
            EXPECT_EQ(cancelCode, 409);
            EXPECT_EQ(stockOf(hardware.id), before);
        } else {
            EXPECT_EQ(status, "cancelled");
            EXPECT_EQ(cancelCode, 200);
            EXPECT_EQ(stockOf(hardware.id), before + 1);
        }
    }
}

TEST(BillingUnpaidOrders, OnlyTheCustomersOwnUnpaidOrderCanBeCancelled) {
    auto hardware = createHardware(3);
    auto owner = newBuyer("owner");
    auto stranger = newBuyer("stranger");
    auto started = startCheckout(owner, {{"productSlug", hardware.slug}});
    ASSERT_EQ(started.status, 200) << started.body;
    const auto orderId = orderOfCheckout(started.json()["checkoutId"]);

    auto theirs = cancelOrder(stranger, orderId);
    EXPECT_EQ(theirs.status, 404) << theirs.body;
    EXPECT_EQ(theirs.json()["code"], "order_not_found");
    for (const std::string bad : {"not-a-uuid", "00000000-0000-4000-8000-000000000000"}) {
        auto r = cancelOrder(owner, bad);
        EXPECT_EQ(r.status, 404) << bad << " " << r.body;
        EXPECT_EQ(r.json()["code"], "order_not_found") << bad;
    }
    EXPECT_EQ(sendJson(env().port, "POST", "/api/v1/account/orders/" + orderId + "/cancel", nlohmann::json::object()).status,
              401);
    // Nothing changed: the order is still pending, payable, its stock still held.
    EXPECT_EQ(orderStatusOfCheckout(started.json()["checkoutId"]), "pending");
    EXPECT_EQ(stockOf(hardware.id), 2);
    EXPECT_TRUE(historyOf(stranger)["items"].empty());
    EXPECT_EQ(findOrder(historyOf(owner)["items"], orderId)["checkout_open"], true);
}

TEST(BillingUnpaidOrders, AnExpiredCheckoutSaysSoAndHasNoWayBack) {
    auto hardware = createHardware(3);
    auto buyer = newBuyer("expired");
    auto started = startCheckout(buyer, {{"productSlug", hardware.slug}});
    ASSERT_EQ(started.status, 200) << started.body;
    const auto orderId = orderOfCheckout(started.json()["checkoutId"]);

    ClockShift later(std::chrono::minutes(31)); // a checkout lasts 30 minutes
    // Whether or not the expiry job has cancelled it yet, its payment window has closed.
    auto order = findOrder(historyOf(buyer)["items"], orderId);
    ASSERT_FALSE(order.is_null());
    EXPECT_EQ(order["checkout_state"], "expired");
    EXPECT_EQ(order["checkout_open"], false);
    EXPECT_TRUE(order["checkout_url"].is_null());
    EXPECT_TRUE(order["checkout_expires_at"].is_string());
    EXPECT_EQ(dashboardOf(buyer)["orders_total"], 1);
}

TEST(BillingUnpaidOrders, MoneyThatArrivesAfterTheCustomerCancelledIsALatePayment) {
    const int stripe = fakeStripeServer();
    auto hardware = createHardware(5);
    auto buyer = newBuyer("late-unpaid");
    auto started = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}}, stripe);
    ASSERT_EQ(started.status, 200) << started.body;
    const std::string checkoutId = started.json()["checkoutId"];
    const std::string sessionId = started.json()["sessionId"];
    const auto orderId = orderOfCheckout(checkoutId);
    EXPECT_EQ(stockOf(hardware.id), 3);

    auto cancelled = cancelOrder(buyer, orderId, stripe);
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    EXPECT_EQ(stockOf(hardware.id), 5);
    EXPECT_EQ(fakeStripe().requests("POST", "/v1/checkout/sessions/" + sessionId + "/expire").size(), 1u);

    // The buyer had paid on Stripe's page a moment before.
    nlohmann::json session = {{"id", sessionId},          {"object", "checkout.session"}, {"client_reference_id", checkoutId},
                              {"mode", "payment"},        {"payment_status", "paid"},     {"amount_total", 5000},
                              {"currency", "nzd"},        {"payment_intent", "pi_" + sessionId},
                              {"metadata", {{"checkout_id", checkoutId}}}};
    for (int i = 0; i < 2; ++i) // a second delivery of the same payment changes nothing more
        ASSERT_EQ(deliverStripeEvent(stripe, kFakeStripeWebhookSecret, stripeEvent("checkout.session.completed", session)).status,
                  200);

    auto order = getJson("/api/v1/admin/orders/" + orderId, callers().admin).json()["order"];
    EXPECT_EQ(order["status"], "cancelled");
    EXPECT_EQ(order["paid_after_cancellation"], true);
    EXPECT_EQ(order["late_payments"].size(), 1u);
    EXPECT_NE(order["history"].back()["note"].get<std::string>().find("after the customer cancelled"), std::string::npos);
    EXPECT_EQ(stockOf(hardware.id), 5);
    EXPECT_EQ(findOrder(historyOf(buyer)["items"], orderId)["status"], "cancelled");
}

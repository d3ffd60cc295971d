// Checkout through the local test provider: prices from the server, stock reserved atomically,
// released on expiry and abandonment, fulfilment from events, and one customer's rows hidden from
// another.
#include "api/billing_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace testing_support;

namespace {

std::int64_t ordersCount() { return countRows("SELECT COUNT(*) FROM orders"); }

} // namespace

TEST(BillingCheckout, NeedsASignedInUser) {
    auto r = postJson("/functions/v1/create-checkout-session", {{"productSlug", "hhtraff"}, {"priceId", kMonthlyPlanId}});
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(postJson("/functions/v1/validate-subscription", {{"productSlug", "hhtraff"}}).status, 401);
    EXPECT_EQ(getJson("/api/v1/account/dashboard").status, 401);
}

TEST(BillingCheckout, SubscriptionIsFulfilledFromTheProviderEventsNotTheReturn) {
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    auto buyer = newBuyer();
    auto r = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto started = r.json();
    const std::string url = started["url"], checkoutId = started["checkoutId"];
    EXPECT_TRUE(std::string(started["sessionId"]).starts_with("cs_local_"));
    EXPECT_EQ(url, kPublicUrl + "/pay/test/" + std::string(started["sessionId"]));

    // The order is pending and nothing is active until the provider says so.
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "pending");
    auto before = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", product.slug}},
                           buyer.headers());
    EXPECT_EQ(before.json()["status"], "none");

    auto page = get(pathOf(url));
    ASSERT_EQ(page.status, 200);
    EXPECT_NE(page.body.find("TEST MODE"), std::string::npos);
    EXPECT_NE(page.body.find("$9.00 NZD per month"), std::string::npos);

    // Visiting the success URL changes nothing.
    get("/dashboard?checkout=" + checkoutId);
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "pending");

    auto paid = pressButton(url, "pay");
    ASSERT_EQ(paid.status, 303);
    EXPECT_EQ(paid.header("location"), kPublicUrl + "/dashboard?checkout=" + checkoutId);
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "paid");
    EXPECT_EQ(checkoutStatus(checkoutId), "completed");

    auto v = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", product.slug}},
                      buyer.headers())
                 .json();
    EXPECT_EQ(v["valid"], true);
    EXPECT_EQ(v["status"], "active");
    EXPECT_EQ(v["message"], "Subscription active");
    EXPECT_GE(v["daysRemaining"].get<int>(), 28);
    EXPECT_LE(v["daysRemaining"].get<int>(), 31);

    auto dash = getJson("/api/v1/account/dashboard", buyer.headers()).json();
    ASSERT_EQ(dash["subscriptions"].size(), 1u);
    EXPECT_EQ(dash["subscriptions"][0]["status"], "active");
    EXPECT_EQ(dash["subscriptions"][0]["payment_provider"], "local");
    EXPECT_EQ(dash["subscriptions"][0]["plan"]["price_amount"], 900);
    ASSERT_EQ(dash["active_subscriptions"].size(), 1u);
    EXPECT_EQ(dash["active_subscriptions"][0]["status"], "active");
    EXPECT_EQ(dash["active_subscriptions"][0]["subscription_source"], "test_checkout");
    EXPECT_FALSE(dash["active_subscriptions"][0]["expires_at"].is_null());
    ASSERT_EQ(dash["orders"].size(), 1u);
    EXPECT_EQ(dash["orders"][0]["status"], "paid");
    EXPECT_EQ(dash["orders"][0]["total_amount"], 900);
    EXPECT_TRUE(std::string(dash["orders"][0]["order_number"]).starts_with("SC-"));

    // Paying again (a second click) changes nothing; a second subscription is refused.
    EXPECT_EQ(pressButton(url, "pay").status, 303);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE user_id = ?", {buyer.userId}), 1);
    auto again = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "already_subscribed");

    // The confirmation email is queued once, with the order number and the server's amounts.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox m JOIN users u ON u.email = m.to_address "
                        "WHERE u.id = ? AND m.kind = 'order_confirmation'",
                        {buyer.userId}),
              1);
    const std::string number = dash["orders"][0]["order_number"];
    auto mail = textColumn("SELECT m.subject || '|' || m.body_text FROM mail_outbox m JOIN users u ON u.email = m.to_address "
                           "WHERE u.id = ? AND m.kind = 'order_confirmation'",
                           {buyer.userId});
    ASSERT_EQ(mail.size(), 1u);
    EXPECT_TRUE(mail[0].starts_with("Order " + number + " confirmed|")) << mail[0];
    EXPECT_NE(mail[0].find("Order number: " + number), std::string::npos) << mail[0];
    EXPECT_NE(mail[0].find("Total paid: $9.00 NZD (GST included)"), std::string::npos) << mail[0];
}

TEST(BillingCheckout, RefusesPricesPlansAndAmountsThatAreNotTheProducts) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto hardware = createHardware(5);
    auto buyer = newBuyer();
    const auto orders = ordersCount();
    const auto refused = [&](const nlohmann::json& body, const std::string& field) {
        auto r = startCheckout(buyer, body);
        EXPECT_EQ(r.status, 422) << body.dump() << " " << r.body;
        if (r.status == 422) {
            EXPECT_TRUE(r.json()["fields"].contains(field)) << r.body;
        }
    };
    refused({{"productSlug", product.slug}, {"priceId", kMonthlyPlanId}}, "priceId"); // another product's plan
    refused({{"productSlug", product.slug}, {"priceId", storefront::db::newId()}}, "priceId");
    refused({{"productSlug", product.slug}}, "priceId");
    refused({{"productSlug", product.slug}, {"priceId", 5}}, "priceId");
    refused({{"productSlug", product.slug}, {"priceId", planId}, {"amount", 1}}, "amount");
    refused({{"productSlug", product.slug}, {"priceId", planId}, {"quantity", 3}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"priceId", planId}}, "priceId");
    refused({{"productSlug", hardware.slug}, {"quantity", 0}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"quantity", 100}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"quantity", "2"}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"quantity", 1.5}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"quantity", -1}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"quantity", 4294967297LL}}, "quantity"); // 2^32 + 1: no int wrap to 1
    refused({{"productSlug", hardware.slug}, {"quantity", 18446744073709551615ULL}}, "quantity");
    refused({{"productSlug", hardware.slug}, {"unit_amount", 1}}, "unit_amount");
    refused({{"productSlug", hardware.slug}, {"returnPath", "//evil.example"}}, "returnPath");
    refused({{"productSlug", hardware.slug}, {"returnPath", "https://evil.example/"}}, "returnPath");
    refused(nlohmann::json::object(), "productSlug");
    EXPECT_EQ(startCheckout(buyer, {{"productSlug", "no-such-product"}}).status, 404);
    EXPECT_EQ(ordersCount(), orders);
    EXPECT_EQ(stockOf(hardware.id), 5);
}

TEST(BillingCheckout, HardwareReservesStockAtStartAndSettlesWhenPaid) {
    auto hardware = createHardware(5, 2500);
    auto buyer = newBuyer();
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}});
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string checkoutId = r.json()["checkoutId"], url = r.json()["url"];
    EXPECT_EQ(stockOf(hardware.id), 3);
    auto page = get(pathOf(url));
    EXPECT_NE(page.body.find("$50.00 NZD"), std::string::npos);

    // A declined card changes nothing: the page says so and the checkout stays open.
    auto declined = pressButton(url, "decline");
    ASSERT_EQ(declined.status, 303);
    auto again = get(declined.header("location"));
    EXPECT_NE(again.body.find("Your card was declined."), std::string::npos);
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "pending");
    EXPECT_EQ(stockOf(hardware.id), 3);

    ASSERT_EQ(pressButton(url, "pay").status, 303);
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "paid");
    EXPECT_EQ(stockOf(hardware.id), 3);
    auto status = getJson("/api/v1/account/checkouts/" + checkoutId, buyer.headers());
    ASSERT_EQ(status.status, 200);
    EXPECT_EQ(status.json()["status"], "completed");
    EXPECT_EQ(status.json()["order"]["status"], "paid");
    EXPECT_EQ(status.json()["order"]["total_amount"], 5000);

    // Cancelling a paid checkout is refused and gives nothing back.
    auto cancel = sendJson(env().port, "POST", "/api/v1/account/checkouts/" + checkoutId + "/cancel", nlohmann::json::object(),
                           buyer.headers());
    EXPECT_EQ(cancel.status, 409);
    EXPECT_EQ(stockOf(hardware.id), 3);

    // Asking for more than is left: a clear 409 naming what is left.
    auto tooMany = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 4}});
    EXPECT_EQ(tooMany.status, 409);
    EXPECT_EQ(tooMany.json()["code"], "insufficient_stock");
    EXPECT_EQ(tooMany.json()["message"], "Only 3 left in stock.");
    EXPECT_EQ(stockOf(hardware.id), 3);
}

TEST(BillingCheckout, FiftyParallelCheckoutsOfFiveInStockReserveExactlyFive) {
    auto hardware = createHardware(5);
    std::vector<Session> buyers;
    for (int i = 0; i < 5; ++i) buyers.push_back(newBuyer("rush"));
    std::atomic<int> ok{0}, soldOut{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 50; ++i)
        threads.emplace_back([&, i] {
            auto r = startCheckout(buyers[i % buyers.size()], {{"productSlug", hardware.slug}, {"quantity", 1}});
            if (r.status == 200) ++ok;
            else if (r.status == 409 && r.json()["code"] == "insufficient_stock") ++soldOut;
            else ++other;
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok.load(), 5);
    EXPECT_EQ(soldOut.load(), 45);
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(stockOf(hardware.id), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE product_id = ? AND stock_state = 'reserved'",
                        {hardware.id}),
              5);
    auto sold = startCheckout(buyers[0], {{"productSlug", hardware.slug}});
    EXPECT_EQ(sold.status, 409);
    EXPECT_EQ(sold.json()["message"], "This item is currently out of stock.");
}

TEST(BillingCheckout, ExpiryAndAbandonmentGiveTheStockBack) {
    auto hardware = createHardware(5);
    auto buyer = newBuyer();
    auto first = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}}).json();
    auto second = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 1}}).json();
    auto third = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 1}}).json();
    EXPECT_EQ(stockOf(hardware.id), 1);

    // Expiry: the job expires it through the provider, whose event gives the stock back.
    execSql("UPDATE checkout_sessions SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", {first["checkoutId"]});
    EXPECT_TRUE(eventually([&] { return stockOf(hardware.id) == 3; }));
    EXPECT_EQ(orderStatusOfCheckout(first["checkoutId"]), "cancelled");
    EXPECT_EQ(checkoutStatus(first["checkoutId"]), "expired");

    // Abandoned from our checkout page (the browser comes back to the cancel URL).
    auto cancel = sendJson(env().port, "POST", "/api/v1/account/checkouts/" + std::string(second["checkoutId"]) + "/cancel",
                           nlohmann::json::object(), buyer.headers());
    ASSERT_EQ(cancel.status, 200) << cancel.body;
    EXPECT_EQ(cancel.json()["status"], "expired");
    EXPECT_EQ(stockOf(hardware.id), 4);
    // Twice is harmless.
    EXPECT_EQ(sendJson(env().port, "POST", "/api/v1/account/checkouts/" + std::string(second["checkoutId"]) + "/cancel",
                       nlohmann::json::object(), buyer.headers())
                  .status,
              200);
    EXPECT_EQ(stockOf(hardware.id), 4);

    // Abandoned on the provider's page.
    auto back = pressButton(third["url"], "cancel");
    ASSERT_EQ(back.status, 303);
    EXPECT_EQ(back.header("location"), kPublicUrl + "/checkout/" + hardware.slug + "?cancelled=" + std::string(third["checkoutId"]));
    EXPECT_EQ(stockOf(hardware.id), 5);
    EXPECT_EQ(orderStatusOfCheckout(third["checkoutId"]), "cancelled");
    // Checkouts that were never paid stay in the customer's Order History, cancelled, with no way back
    // to their checkout (docs/billing.md, "Unpaid orders").
    auto orders = getJson("/api/v1/account/dashboard", buyer.headers()).json()["orders"];
    ASSERT_EQ(orders.size(), 3u);
    for (const auto& order : orders) {
        EXPECT_EQ(order["status"], "cancelled");
        EXPECT_TRUE(order["checkout_url"].is_null());
        EXPECT_NE(order["checkout_state"], "open");
    }
    // An expired checkout can no longer be paid.
    EXPECT_EQ(pressButton(third["url"], "pay").status, 303);
    EXPECT_EQ(orderStatusOfCheckout(third["checkoutId"]), "cancelled");
    EXPECT_EQ(stockOf(hardware.id), 5);
}

TEST(BillingCheckout, OneCustomerCannotSeeOrChangeAnothersCheckoutsOrdersOrSubscriptions) {
    auto hardware = createHardware(3);
    auto alice = newBuyer("alice");
    auto bob = newBuyer("bob");
    auto started = startCheckout(alice, {{"productSlug", hardware.slug}}).json();
    const std::string checkoutId = started["checkoutId"];
    ASSERT_EQ(pressButton(started["url"], "pay").status, 303);

    EXPECT_EQ(getJson("/api/v1/account/checkouts/" + checkoutId, bob.headers()).status, 404);
    EXPECT_EQ(sendJson(env().port, "POST", "/api/v1/account/checkouts/" + checkoutId + "/cancel", nlohmann::json::object(),
                       bob.headers())
                  .status,
              404);
    auto bobs = getJson("/api/v1/account/dashboard", bob.headers()).json();
    EXPECT_TRUE(bobs["orders"].empty());
    EXPECT_TRUE(bobs["subscriptions"].empty());
    auto alices = getJson("/api/v1/account/dashboard", alice.headers()).json();
    EXPECT_EQ(alices["orders"].size(), 1u);
    EXPECT_EQ(getJson("/api/v1/account/checkouts/not-a-uuid", alice.headers()).status, 404);
    // Bob's billing portal is his own: he has no billing account yet.
    auto portal = sendJson(env().port, "POST", "/functions/v1/create-portal-session", nlohmann::json::object(), bob.headers());
    EXPECT_EQ(portal.status, 404);
    EXPECT_EQ(portal.json()["code"], "no_billing_account");
}

TEST(BillingCheckout, PortalCancelsTheSubscription) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto buyer = newBuyer();
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}, {"returnPath", "/test-subscription"}});
    ASSERT_EQ(started.status, 200);
    auto paid = pressButton(started.json()["url"], "pay");
    EXPECT_EQ(paid.header("location"), kPublicUrl + "/test-subscription?checkout=" + std::string(started.json()["checkoutId"]));

    // No body at all, as the apps send it.
    auto portal = http(env().port, "POST", "/functions/v1/create-portal-session", "", buyer.headers());
    ASSERT_EQ(portal.status, 200) << portal.body;
    const std::string url = portal.json()["url"];
    auto page = get(pathOf(url));
    ASSERT_EQ(page.status, 200);
    EXPECT_NE(page.body.find(product.slug), std::string::npos);
    auto subId = textColumn("SELECT provider_subscription_id FROM subscriptions WHERE user_id = ?", {buyer.userId});
    ASSERT_EQ(subId.size(), 1u);
    // The page asks first: what cancelling does, and the button that does it; nothing changes yet.
    auto confirm = get(pathOf(url) + "/cancel/" + subId[0]);
    ASSERT_EQ(confirm.status, 200);
    EXPECT_NE(confirm.body.find("Access ends immediately"), std::string::npos);
    EXPECT_NE(confirm.body.find("action=\"" + pathOf(url) + "/cancel/" + subId[0] + "\""), std::string::npos);
    EXPECT_EQ(textColumn("SELECT status FROM subscriptions WHERE user_id = ?", {buyer.userId}).at(0), "active");
    EXPECT_EQ(get(pathOf(url) + "/cancel/sub_local_not_listed").status, 404);
    auto cancelled = http(env().port, "POST", pathOf(url) + "/cancel/" + subId[0], "");
    EXPECT_EQ(cancelled.status, 303);
    auto v = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", product.slug}},
                      buyer.headers())
                 .json();
    EXPECT_EQ(v["valid"], false);
    EXPECT_EQ(v["status"], "cancelled");
    // A made-up portal link shows nothing.
    EXPECT_EQ(get("/pay/test/portal/bps_local_nope").status, 404);
}

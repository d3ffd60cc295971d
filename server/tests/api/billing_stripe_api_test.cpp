// The server with the Stripe provider, against the local fake of Stripe's endpoints: amounts come
// from our database, one Stripe customer per user, idempotency keys on every create, and the
// webhook completing what the checkout started.
#include "api/billing_support.h"
#include "api/fake_stripe.h"
#include "billing/provider/stripe_signature.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

using namespace testing_support;

namespace {

const std::string kWebhookSecret = kFakeStripeWebhookSecret;

FakeStripe& fake() { return fakeStripe(); }

int stripeServer() { return fakeStripeServer(); }

HttpResult deliver(const nlohmann::json& event) {
    const std::string payload = event.dump();
    return http(stripeServer(), "POST", "/webhooks/stripe", payload,
                {{"Content-Type", "application/json"},
                 {"Stripe-Signature",
                  storefront::billing::stripeSignatureHeader(kWebhookSecret, payload, Poco::Timestamp().epochTime())}});
}

} // namespace

TEST(BillingStripe, CheckoutSendsTheServersAmountsWithIdempotencyKeysAndOneCustomerPerUser) {
    const int port = stripeServer();
    fake().clearRequests();
    auto buyer = newBuyer("stripe");
    auto r = startCheckout(buyer, {{"productSlug", "hhtraff"}, {"priceId", kMonthlyPlanId}}, port);
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string checkoutId = r.json()["checkoutId"], sessionId = r.json()["sessionId"];
    auto session = fake().session(sessionId);
    ASSERT_TRUE(session);
    EXPECT_EQ(r.json()["url"], session->url);

    auto customers = fake().requests("POST", "/v1/customers");
    ASSERT_EQ(customers.size(), 1u);
    EXPECT_EQ(customers[0].header("idempotency-key"), "customer-" + buyer.userId);
    EXPECT_EQ(customers[0].field("metadata[user_id]"), buyer.userId);
    EXPECT_EQ(customers[0].header("authorization"), "Bearer " + fake().secretKey());

    auto created = fake().requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(created.size(), 1u);
    const auto& c = created[0];
    EXPECT_EQ(c.header("idempotency-key"), "checkout-" + checkoutId);
    EXPECT_EQ(c.field("mode"), "subscription");
    EXPECT_EQ(c.field("client_reference_id"), checkoutId);
    EXPECT_EQ(c.field("customer"), customers[0].status == 200 ? fake().customers().back().id : "");
    EXPECT_EQ(c.field("line_items[0][price_data][unit_amount]"), "1500");
    EXPECT_EQ(c.field("line_items[0][price_data][currency]"), "nzd");
    EXPECT_EQ(c.field("line_items[0][price_data][recurring][interval]"), "month");
    EXPECT_EQ(c.field("line_items[0][price_data][recurring][interval_count]"), "1");
    EXPECT_EQ(c.field("line_items[0][quantity]"), "1");
    EXPECT_EQ(c.field("success_url"), kPublicUrl + "/dashboard?checkout=" + checkoutId);
    EXPECT_EQ(c.field("cancel_url"), kPublicUrl + "/checkout/hhtraff?cancelled=" + checkoutId);
    EXPECT_EQ(c.field("subscription_data[metadata][user_id]"), buyer.userId);
    EXPECT_EQ(c.field("metadata[checkout_id]"), checkoutId);

    // A second checkout (hardware) reuses the customer and sends the product's own price.
    auto hardware = createHardware(4, 4900);
    auto second = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}}, port);
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(fake().requests("POST", "/v1/customers").size(), 1u);
    auto payment = fake().requests("POST", "/v1/checkout/sessions").back();
    EXPECT_EQ(payment.field("mode"), "payment");
    EXPECT_EQ(payment.field("line_items[0][price_data][unit_amount]"), "4900");
    EXPECT_EQ(payment.field("line_items[0][quantity]"), "2");
    EXPECT_FALSE(payment.has("line_items[0][price_data][recurring][interval]"));
    EXPECT_EQ(stockOf(hardware.id), 2);

    // Stripe's event completes it: the order is paid, the subscription active.
    nlohmann::json object = {{"id", sessionId},        {"object", "checkout.session"}, {"client_reference_id", checkoutId},
                             {"mode", "subscription"}, {"payment_status", "paid"},     {"subscription", "sub_fake_flow_1"},
                             {"customer", c.field("customer")}, {"amount_total", 1500}, {"currency", "nzd"}};
    auto delivered = deliver({{"id", unique("evt_flow")},
                              {"type", "checkout.session.completed"},
                              {"created", Poco::Timestamp().epochTime()},
                              {"data", {{"object", object}}}});
    ASSERT_EQ(delivered.status, 200) << delivered.body;
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "paid");
    auto v = sendJson(port, "POST", "/functions/v1/validate-subscription", {{"productSlug", "hhtraff"}}, buyer.headers()).json();
    EXPECT_EQ(v["status"], "active");
    auto dash = sendJson(port, "GET", "/api/v1/account/dashboard", nullptr, buyer.headers());
    EXPECT_EQ(dash.json()["active_subscriptions"][0]["subscription_source"], "stripe_subscription");

    // The portal goes to Stripe's, for this customer.
    auto portal = http(port, "POST", "/functions/v1/create-portal-session", "", buyer.headers());
    ASSERT_EQ(portal.status, 200) << portal.body;
    EXPECT_EQ(fake().requests("POST", "/v1/billing_portal/sessions").back().field("customer"), c.field("customer"));
    EXPECT_EQ(fake().requests("POST", "/v1/billing_portal/sessions").back().field("return_url"), kPublicUrl + "/dashboard");
}

TEST(BillingStripe, AProviderFailureAnswers502AndGivesTheStockBack) {
    const int port = stripeServer();
    auto buyer = newBuyer("stripe");
    auto hardware = createHardware(3);
    // The customer is made first; fail the checkout call itself.
    ASSERT_EQ(startCheckout(buyer, {{"productSlug", hardware.slug}}, port).status, 200);
    EXPECT_EQ(stockOf(hardware.id), 2);
    fake().failNext(500, "Stripe is having a bad day", "api_error", "/v1/checkout/sessions");
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}}, port);
    EXPECT_EQ(r.status, 502);
    EXPECT_EQ(r.json()["code"], "payment_provider_error");
    EXPECT_EQ(r.body.find("sk_test"), std::string::npos);
    EXPECT_EQ(stockOf(hardware.id), 2);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE product_id = ? AND status = 'expired'", {hardware.id}), 1);
    // Abandoning the open one asks Stripe to expire it; Stripe's event then gives the stock back.
    auto open = textColumn("SELECT CAST(id AS TEXT) FROM checkout_sessions WHERE product_id = ? AND status = 'open'", {hardware.id});
    ASSERT_EQ(open.size(), 1u);
    auto cancel = sendJson(port, "POST", "/api/v1/account/checkouts/" + open[0] + "/cancel", nlohmann::json::object(),
                           buyer.headers());
    ASSERT_EQ(cancel.status, 200) << cancel.body;
    auto sessionId = textColumn("SELECT provider_session_id FROM checkout_sessions WHERE id = ?", {open[0]});
    EXPECT_EQ(fake().requests("POST", "/v1/checkout/sessions/" + sessionId[0] + "/expire").size(), 1u);
    ASSERT_EQ(deliver({{"id", unique("evt_exp")},
                       {"type", "checkout.session.expired"},
                       {"created", Poco::Timestamp().epochTime()},
                       {"data", {{"object", {{"id", sessionId[0]}, {"client_reference_id", open[0]}}}}}})
                  .status,
              200);
    EXPECT_EQ(stockOf(hardware.id), 3);
    EXPECT_EQ(orderStatusOfCheckout(open[0]), "cancelled");
}

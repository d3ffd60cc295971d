// The Stripe adapter against the fake Stripe API: headers on every request, idempotency keys,
// the exact form of each call, error mapping and timeouts. No Storefront server is started.
#include "api/fake_stripe.h"
#include "billing/provider/stripe_provider.h"

#include <Poco/Net/ServerSocket.h>
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <set>
#include <thread>

namespace {

using namespace storefront::billing;
using testing_support::FakeStripe;
using testing_support::StripeRequest;
using Fields = std::map<std::string, std::string>;

bool waitFor(const std::function<bool()>& condition, double seconds = 10) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return condition();
}

// The message of the ProviderError `call` throws ("" and a test failure when it throws nothing).
std::string providerError(const std::function<void()>& call) {
    try {
        call();
    } catch (const ProviderError& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected ProviderError";
    return "";
}

class StripeProviderApi : public ::testing::Test {
protected:
    FakeStripe fake;
    StripeProvider provider{StripeSettings{fake.secretKey(), fake.apiBase(), 5, ""}};
    const std::int64_t expiresAt = static_cast<std::int64_t>(std::time(nullptr)) + 3600;

    CheckoutRequest paymentRequest(const std::string& customer) const {
        CheckoutRequest r;
        r.checkoutId = "7d1c5a52-8f0e-4c1b-9a3e-2b6f4e8d9c01";
        r.mode = "payment";
        r.customerId = customer;
        r.line = {"Signal Booster — Kōwhai edition", 600, "NZD", 2, "", 1};
        r.successUrl = "https://shop.signalcraft.test/dashboard?checkout=7d1c5a52-8f0e-4c1b-9a3e-2b6f4e8d9c01";
        r.cancelUrl = "https://shop.signalcraft.test/checkout/signal-booster";
        r.expiresAt = expiresAt;
        r.metadata = {{"checkout_id", r.checkoutId}, {"user_id", "u-42"}, {"product_id", "p-7"}};
        return r;
    }

    CheckoutRequest subscriptionRequest(const std::string& customer) const {
        CheckoutRequest r;
        r.checkoutId = "0b9e3f7a-1c2d-4e5f-8a9b-c0d1e2f3a4b5";
        r.mode = "subscription";
        r.customerId = customer;
        r.line = {"Signal Pro (Quarterly)", 4900, "AUD", 1, "month", 3};
        r.successUrl = "https://shop.signalcraft.test/dashboard?checkout=0b9e3f7a-1c2d-4e5f-8a9b-c0d1e2f3a4b5";
        r.cancelUrl = "https://shop.signalcraft.test/checkout/signal-pro";
        r.expiresAt = expiresAt;
        r.metadata = {
            {"checkout_id", r.checkoutId}, {"user_id", "u-42"}, {"product_id", "p-9"}, {"pricing_plan_id", "plan-3"}};
        return r;
    }

    StripeRequest only(const std::string& method, const std::string& path) const {
        auto found = fake.requests(method, path);
        EXPECT_EQ(found.size(), 1u) << method << " " << path;
        return found.empty() ? StripeRequest{} : found.front();
    }
};

TEST_F(StripeProviderApi, CreatesACustomer) {
    EXPECT_EQ(provider.name(), "stripe");
    EXPECT_EQ(provider.createCustomer("u-42", "ana+shop@example.com"), "cus_fake_1");
    const auto r = only("POST", "/v1/customers");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.fields, (Fields{{"email", "ana+shop@example.com"}, {"metadata[user_id]", "u-42"}}));
    EXPECT_EQ(r.header("idempotency-key"), "customer-u-42");
    EXPECT_EQ(r.body, "email=ana%2Bshop%40example.com&metadata[user_id]=u-42");
    ASSERT_EQ(fake.customers().size(), 1u);
    EXPECT_EQ(fake.customers()[0].email, "ana+shop@example.com");
    EXPECT_EQ(fake.customers()[0].metadata, (Fields{{"user_id", "u-42"}}));
}

TEST_F(StripeProviderApi, EveryRequestCarriesTheKeyTheVersionAndTheFormType) {
    const auto customer = provider.createCustomer("u-42", "ana@example.com");
    const auto session = provider.createCheckoutSession(paymentRequest(customer));
    provider.createPortalSession(customer, "https://shop.signalcraft.test/dashboard");
    provider.expireCheckoutSession(session.id);
    fake.completeSession(provider.createCheckoutSession(subscriptionRequest(customer)).id);
    provider.expireCheckoutSession("cs_fake_2"); // refused (complete), then read back with a GET

    const auto requests = fake.requests();
    ASSERT_EQ(requests.size(), 7u);
    for (const auto& r : requests) {
        SCOPED_TRACE(r.method + " " + r.path);
        EXPECT_EQ(r.header("authorization"), "Bearer sk_test_fake_4242");
        EXPECT_EQ(r.header("stripe-version"), std::string(kStripeApiVersion));
        EXPECT_EQ(r.header("stripe-version"), "2025-09-30.clover");
        EXPECT_EQ(r.header("content-type"), "application/x-www-form-urlencoded");
        EXPECT_EQ(r.header("accept"), "application/json");
        // Every POST creates or changes something, so every POST is idempotent.
        if (r.method == "POST")
            EXPECT_FALSE(r.header("idempotency-key").empty());
        else
            EXPECT_EQ(r.header("idempotency-key"), "");
    }
}

TEST_F(StripeProviderApi, PaymentCheckoutSendsExactlyTheseFields) {
    const auto customer = provider.createCustomer("u-42", "ana@example.com");
    const auto request = paymentRequest(customer);
    const auto created = provider.createCheckoutSession(request);
    EXPECT_EQ(created.id, "cs_fake_1");
    EXPECT_EQ(created.url, "https://checkout.stripe.test/c/pay/cs_fake_1");

    const auto r = only("POST", "/v1/checkout/sessions");
    EXPECT_EQ(r.header("idempotency-key"), "checkout-7d1c5a52-8f0e-4c1b-9a3e-2b6f4e8d9c01");
    const Fields expected = {
        {"mode", "payment"},
        {"customer", "cus_fake_1"},
        {"client_reference_id", request.checkoutId},
        {"success_url", request.successUrl},
        {"cancel_url", request.cancelUrl},
        {"expires_at", std::to_string(expiresAt)},
        {"metadata[checkout_id]", request.checkoutId},
        {"metadata[user_id]", "u-42"},
        {"metadata[product_id]", "p-7"},
        {"line_items[0][quantity]", "2"},
        {"line_items[0][price_data][currency]", "nzd"},
        {"line_items[0][price_data][unit_amount]", "600"},
        {"line_items[0][price_data][product_data][name]", "Signal Booster — Kōwhai edition"},
        {"payment_intent_data[metadata][checkout_id]", request.checkoutId},
        {"payment_intent_data[metadata][user_id]", "u-42"},
        {"payment_intent_data[metadata][product_id]", "p-7"},
    };
    EXPECT_EQ(r.fields, expected);

    const auto stored = fake.session("cs_fake_1");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->status, "open");
    EXPECT_EQ(stored->clientReferenceId, request.checkoutId);
    EXPECT_EQ(stored->metadata, request.metadata);
}

TEST_F(StripeProviderApi, SubscriptionCheckoutSendsExactlyTheseFields) {
    const auto customer = provider.createCustomer("u-42", "ana@example.com");
    const auto request = subscriptionRequest(customer);
    const auto created = provider.createCheckoutSession(request);
    EXPECT_EQ(created.id, "cs_fake_1");
    EXPECT_EQ(created.url, "https://checkout.stripe.test/c/pay/cs_fake_1");

    const auto r = only("POST", "/v1/checkout/sessions");
    EXPECT_EQ(r.header("idempotency-key"), "checkout-0b9e3f7a-1c2d-4e5f-8a9b-c0d1e2f3a4b5");
    const Fields expected = {
        {"mode", "subscription"},
        {"customer", "cus_fake_1"},
        {"client_reference_id", request.checkoutId},
        {"success_url", request.successUrl},
        {"cancel_url", request.cancelUrl},
        {"expires_at", std::to_string(expiresAt)},
        {"metadata[checkout_id]", request.checkoutId},
        {"metadata[user_id]", "u-42"},
        {"metadata[product_id]", "p-9"},
        {"metadata[pricing_plan_id]", "plan-3"},
        {"line_items[0][quantity]", "1"},
        {"line_items[0][price_data][currency]", "aud"},
        {"line_items[0][price_data][unit_amount]", "4900"},
        {"line_items[0][price_data][product_data][name]", "Signal Pro (Quarterly)"},
        {"line_items[0][price_data][recurring][interval]", "month"},
        {"line_items[0][price_data][recurring][interval_count]", "3"},
        {"subscription_data[metadata][checkout_id]", request.checkoutId},
        {"subscription_data[metadata][user_id]", "u-42"},
        {"subscription_data[metadata][product_id]", "p-9"},
        {"subscription_data[metadata][pricing_plan_id]", "plan-3"},
    };
    EXPECT_EQ(r.fields, expected);
}

TEST_F(StripeProviderApi, YearlySubscriptionSendsTheYearInterval) {
    auto request = subscriptionRequest(provider.createCustomer("u-42", "ana@example.com"));
    request.line.interval = "year";
    request.line.intervalCount = 1;
    provider.createCheckoutSession(request);
    const auto r = only("POST", "/v1/checkout/sessions");
    EXPECT_EQ(r.field("line_items[0][price_data][recurring][interval]"), "year");
    EXPECT_EQ(r.field("line_items[0][price_data][recurring][interval_count]"), "1");
}

TEST_F(StripeProviderApi, RetriedCreatesSendTheSameKeyAndMakeNothingNew) {
    const auto first = provider.createCustomer("u-42", "ana@example.com");
    const auto again = provider.createCustomer("u-42", "ana@example.com");
    EXPECT_EQ(first, again);
    EXPECT_EQ(fake.customers().size(), 1u);

    const auto session = provider.createCheckoutSession(paymentRequest(first));
    const auto retried = provider.createCheckoutSession(paymentRequest(first));
    EXPECT_EQ(session.id, retried.id);
    EXPECT_EQ(session.url, retried.url);
    EXPECT_EQ(fake.sessions().size(), 1u);

    const auto customers = fake.requests("POST", "/v1/customers");
    ASSERT_EQ(customers.size(), 2u);
    EXPECT_EQ(customers[0].header("idempotency-key"), customers[1].header("idempotency-key"));
    EXPECT_TRUE(customers[1].replayed);
    const auto sessions = fake.requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(sessions.size(), 2u);
    EXPECT_EQ(sessions[0].header("idempotency-key"), sessions[1].header("idempotency-key"));
    EXPECT_EQ(sessions[0].body, sessions[1].body); // byte for byte: Stripe replays only identical parameters
    EXPECT_TRUE(sessions[1].replayed);

    // Another user, another customer.
    EXPECT_EQ(provider.createCustomer("u-43", "bo@example.com"), "cus_fake_2");
}

TEST_F(StripeProviderApi, ARetryAfterAFailureSucceedsWithTheSameKey) {
    const auto customer = provider.createCustomer("u-42", "ana@example.com");
    fake.failNext(500, "An unknown error occurred", "api_error", "/v1/checkout/sessions");
    const auto message = providerError([&] { provider.createCheckoutSession(paymentRequest(customer)); });
    EXPECT_NE(message.find("An unknown error occurred"), std::string::npos) << message;
    const auto created = provider.createCheckoutSession(paymentRequest(customer));
    EXPECT_EQ(created.id, "cs_fake_1");
    EXPECT_EQ(fake.sessions().size(), 1u);
    const auto sessions = fake.requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(sessions.size(), 2u);
    EXPECT_EQ(sessions[0].status, 500);
    EXPECT_EQ(sessions[1].status, 200);
    EXPECT_EQ(sessions[0].header("idempotency-key"), sessions[1].header("idempotency-key"));
}

TEST_F(StripeProviderApi, PortalSession) {
    const auto customer = provider.createCustomer("u-42", "ana@example.com");
    const auto url = provider.createPortalSession(customer, "https://shop.signalcraft.test/dashboard");
    EXPECT_EQ(url, "https://billing.stripe.test/p/session/bps_fake_1");
    const auto second = provider.createPortalSession(customer, "https://shop.signalcraft.test/dashboard");
    EXPECT_EQ(second, "https://billing.stripe.test/p/session/bps_fake_2");

    const auto requests = fake.requests("POST", "/v1/billing_portal/sessions");
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0].fields,
              (Fields{{"customer", "cus_fake_1"}, {"return_url", "https://shop.signalcraft.test/dashboard"}}));
    // A fresh key each time: a new portal session per visit.
    EXPECT_EQ(requests[0].header("idempotency-key").rfind("portal-cus_fake_1-", 0), 0u);
    EXPECT_NE(requests[0].header("idempotency-key"), requests[1].header("idempotency-key"));
}

TEST_F(StripeProviderApi, ExpiresAnOpenSession) {
    const auto session = provider.createCheckoutSession(paymentRequest(provider.createCustomer("u-42", "a@x.test")));
    provider.expireCheckoutSession(session.id);
    EXPECT_EQ(fake.session(session.id)->status, "expired");
    const auto r = only("POST", "/v1/checkout/sessions/cs_fake_1/expire");
    EXPECT_EQ(r.header("idempotency-key"), "expire-cs_fake_1");
    EXPECT_EQ(r.body, "");
    EXPECT_EQ(r.header("content-length"), "0");
    // Again: the same key, Stripe's first answer, no error.
    EXPECT_NO_THROW(provider.expireCheckoutSession(session.id));
}

TEST_F(StripeProviderApi, ExpiringASessionThatIsNoLongerOpenIsNotAnError) {
    const auto customer = provider.createCustomer("u-42", "a@x.test");
    const auto paid = provider.createCheckoutSession(paymentRequest(customer));
    fake.completeSession(paid.id);
    EXPECT_NO_THROW(provider.expireCheckoutSession(paid.id));
    EXPECT_EQ(fake.session(paid.id)->status, "complete");
    EXPECT_EQ(only("POST", "/v1/checkout/sessions/cs_fake_1/expire").status, 400);
    EXPECT_EQ(only("GET", "/v1/checkout/sessions/cs_fake_1").status, 200);
}

TEST_F(StripeProviderApi, ExpireRefusedForAnotherReasonIsAnError) {
    const auto session = provider.createCheckoutSession(paymentRequest(provider.createCustomer("u-42", "a@x.test")));
    fake.failNext(400, "This Checkout Session cannot be expired right now.", "invalid_request_error",
                  "/v1/checkout/sessions/");
    const auto message = providerError([&] { provider.expireCheckoutSession(session.id); });
    EXPECT_NE(message.find("This Checkout Session cannot be expired right now."), std::string::npos) << message;
    EXPECT_EQ(fake.session(session.id)->status, "open");

    const auto unknown = providerError([&] { provider.expireCheckoutSession("cs_missing"); });
    EXPECT_NE(unknown.find("No such checkout.session: 'cs_missing'"), std::string::npos) << unknown;
}

TEST_F(StripeProviderApi, SessionIdsAreEncodedInThePath) {
    providerError([&] { provider.expireCheckoutSession("cs_1/../../v1/customers"); });
    const auto requests = fake.requests();
    ASSERT_FALSE(requests.empty());
    EXPECT_EQ(requests[0].path, "/v1/checkout/sessions/cs_1%2F..%2F..%2Fv1%2Fcustomers/expire");
    EXPECT_TRUE(fake.customers().empty());
}

TEST_F(StripeProviderApi, ErrorsCarryStripesMessage) {
    const auto customer = provider.createCustomer("u-42", "a@x.test");
    fake.failNext(402, "Your card was declined.", "card_error");
    auto message = providerError([&] { provider.createCheckoutSession(paymentRequest(customer)); });
    EXPECT_NE(message.find("Your card was declined."), std::string::npos) << message;
    EXPECT_NE(message.find("HTTP 402"), std::string::npos) << message;
    EXPECT_NE(message.find("req_fake_"), std::string::npos) << message; // Stripe's request id, for support

    // Refusals of the fake's own checks (like Stripe's) come through the same way.
    auto bad = subscriptionRequest(customer);
    bad.customerId = "cus_nobody";
    message = providerError([&] { provider.createCheckoutSession(bad); });
    EXPECT_NE(message.find("No such customer: 'cus_nobody'"), std::string::npos) << message;

    message = providerError([&] { provider.createPortalSession("cus_nobody", "https://shop.signalcraft.test/"); });
    EXPECT_NE(message.find("No such customer: 'cus_nobody'"), std::string::npos) << message;
}

TEST_F(StripeProviderApi, ErrorsNeverContainTheSecretKey) {
    StripeProvider wrongKey{StripeSettings{"sk_test_wrong_key_0123456789", fake.apiBase(), 5, ""}};
    auto message = providerError([&] { wrongKey.createCustomer("u-42", "a@x.test"); });
    EXPECT_NE(message.find("Invalid API Key provided"), std::string::npos) << message;
    EXPECT_NE(message.find("HTTP 401"), std::string::npos) << message;
    EXPECT_EQ(message.find("sk_test_wrong_key_0123456789"), std::string::npos) << message;

    // Even if Stripe's message quoted the key in full, ours would not.
    fake.failNext(400, "Something about sk_test_fake_4242 went wrong", "invalid_request_error");
    message = providerError([&] { provider.createCustomer("u-42", "a@x.test"); });
    EXPECT_EQ(message.find("sk_test_fake_4242"), std::string::npos) << message;
    EXPECT_NE(message.find("Something about [secret key] went wrong"), std::string::npos) << message;
}

TEST_F(StripeProviderApi, ATimeoutIsAProviderErrorAndTheRetryFindsTheSameObject) {
    StripeProvider impatient{StripeSettings{fake.secretKey(), fake.apiBase(), 1, ""}};
    fake.delayNext(std::chrono::milliseconds(2500));
    const auto started = std::chrono::steady_clock::now();
    const auto message = providerError([&] { impatient.createCustomer("u-42", "a@x.test"); });
    const auto waited = std::chrono::steady_clock::now() - started;
    EXPECT_NE(message.find("could not be reached"), std::string::npos) << message;
    EXPECT_LT(waited, std::chrono::milliseconds(2400));
    // Stripe finished the work after we stopped waiting; the retry gets that customer, not a second one.
    ASSERT_TRUE(waitFor([&] { return fake.customers().size() == 1; }));
    EXPECT_EQ(impatient.createCustomer("u-42", "a@x.test"), "cus_fake_1");
    EXPECT_EQ(fake.customers().size(), 1u);
}

TEST_F(StripeProviderApi, AnUnreachableApiIsAProviderError) {
    int closedPort = 0;
    {
        Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
        closedPort = socket.address().port();
    }
    StripeProvider nowhere{StripeSettings{"sk_test_x", "http://127.0.0.1:" + std::to_string(closedPort), 2, ""}};
    const auto message = providerError([&] { nowhere.createCustomer("u-42", "a@x.test"); });
    EXPECT_NE(message.find("could not be reached"), std::string::npos) << message;
    EXPECT_EQ(message.find("sk_test_x"), std::string::npos) << message;
}

TEST_F(StripeProviderApi, HttpsWorksWithACertificateFromTheTrustStore) {
    FakeStripe tlsFake(FakeStripe::Transport::Https);
    ASSERT_EQ(tlsFake.apiBase().rfind("https://", 0), 0u);
    StripeProvider tls{StripeSettings{tlsFake.secretKey(), tlsFake.apiBase(), 5, tlsFake.certificateFile()}};
    EXPECT_EQ(tls.createCustomer("u-42", "a@x.test"), "cus_fake_1");
    ASSERT_EQ(tlsFake.requests().size(), 1u);
    EXPECT_EQ(tlsFake.requests()[0].header("authorization"), "Bearer sk_test_fake_4242");
}

TEST_F(StripeProviderApi, HttpsRefusesACertificateTheTrustStoreDoesNotVouchFor) {
    FakeStripe tlsFake(FakeStripe::Transport::Https);
    // The production trust store knows nothing of the fake's self-signed certificate.
    StripeProvider tls{StripeSettings{tlsFake.secretKey(), tlsFake.apiBase(), 5, "/etc/ssl/certs"}};
    const auto message = providerError([&] { tls.createCustomer("u-42", "a@x.test"); });
    EXPECT_NE(message.find("could not be reached"), std::string::npos) << message;
    EXPECT_NE(message.find("certificate verify failed"), std::string::npos) << message;
    EXPECT_TRUE(tlsFake.requests().empty()); // the key never left the building
}

TEST_F(StripeProviderApi, AStalledTlsHandshakeTimesOutOnTime) {
    // Listens but never accepts: the TCP connection opens, the handshake never starts.
    Poco::Net::ServerSocket silent(Poco::Net::SocketAddress("127.0.0.1", 0));
    StripeProvider tls{StripeSettings{"sk_test_x", "https://127.0.0.1:" + std::to_string(silent.address().port()), 1,
                                      "/etc/ssl/certs"}};
    const auto started = std::chrono::steady_clock::now();
    const auto message = providerError([&] { tls.createCustomer("u-42", "a@x.test"); });
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(2500));
    EXPECT_NE(message.find("could not be reached"), std::string::npos) << message;
}

TEST_F(StripeProviderApi, HttpsToAServerWithoutTlsFails) {
    StripeProvider tls{
        StripeSettings{fake.secretKey(), "https://127.0.0.1:" + std::to_string(fake.port()), 2, "/etc/ssl/certs"}};
    const auto message = providerError([&] { tls.createCustomer("u-42", "a@x.test"); });
    EXPECT_NE(message.find("could not be reached"), std::string::npos) << message;
    EXPECT_TRUE(fake.customers().empty());
}

TEST_F(StripeProviderApi, ATrailingSlashOnTheApiBaseIsHarmless) {
    StripeProvider slash{StripeSettings{fake.secretKey(), fake.apiBase() + "/", 5, ""}};
    EXPECT_EQ(slash.createCustomer("u-42", "a@x.test"), "cus_fake_1");
    EXPECT_EQ(fake.requests()[0].path, "/v1/customers");
}

TEST_F(StripeProviderApi, SettingsAreCheckedWhenTheProviderIsMade) {
    EXPECT_THROW(StripeProvider(StripeSettings{"", fake.apiBase(), 5, ""}), std::invalid_argument);
    EXPECT_THROW(StripeProvider(StripeSettings{"sk_test_x", "ftp://api.stripe.com", 5, ""}), std::invalid_argument);
    EXPECT_THROW(StripeProvider(StripeSettings{"sk_test_x", "api.stripe.com", 5, ""}), std::invalid_argument);
    EXPECT_THROW(StripeProvider(StripeSettings{"sk_test_x", "https://api.stripe.com?x=1", 5, ""}),
                 std::invalid_argument);
    EXPECT_THROW(StripeProvider(StripeSettings{"sk_test_x", fake.apiBase(), 0, ""}), std::invalid_argument);
    EXPECT_NO_THROW(StripeProvider(StripeSettings{"sk_test_x"})); // the production defaults
}

TEST_F(StripeProviderApi, ProgrammingErrorsAreRefusedBeforeAnyRequest) {
    auto request = paymentRequest("cus_fake_1");
    request.mode = "setup";
    EXPECT_THROW(provider.createCheckoutSession(request), std::invalid_argument);
    auto noInterval = subscriptionRequest("cus_fake_1");
    noInterval.line.interval.clear();
    EXPECT_THROW(provider.createCheckoutSession(noInterval), std::invalid_argument);
    EXPECT_THROW(provider.expireCheckoutSession(""), std::invalid_argument);
    EXPECT_TRUE(fake.requests().empty());
}

} // namespace

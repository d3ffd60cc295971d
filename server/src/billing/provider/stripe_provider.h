#pragma once
// The Stripe payment provider: customers, hosted Checkout Sessions and billing-portal sessions
// over Stripe's HTTPS API (form-encoded requests, JSON answers). Every request carries the secret
// key as a bearer token and the pinned API version; every create carries an idempotency key, so
// retrying a call that failed or timed out never makes a second object. There are no automatic
// retries: a failure is a ProviderError at once. Each call opens its own connection, so one
// provider serves any number of threads.
#include "billing/provider/payment_provider.h"
#include "billing/provider/stripe_form.h"

#include <memory>
#include <string>
#include <string_view>

namespace storefront::billing {

// The API version every request pins. Webhook endpoints should be created with the same version,
// so event payloads have the shape this code was written against.
inline constexpr std::string_view kStripeApiVersion = "2025-09-30.clover";

struct StripeSettings {
    std::string secretKey;                          // sk_live_... / sk_test_... / rk_... (never logged)
    std::string apiBase = "https://api.stripe.com"; // no trailing slash; http:// only for local fakes
    int timeoutSeconds = 20;                        // connect, and each send or receive
    std::string caLocation = "/etc/ssl/certs";      // trusted CAs for https (a directory or a PEM file)
};

class StripeProvider : public PaymentProvider {
public:
    // Throws std::invalid_argument when the key is empty or apiBase is not an http(s) URL.
    explicit StripeProvider(StripeSettings settings);
    ~StripeProvider() override;

    std::string name() const override { return "stripe"; }
    std::string createCustomer(const std::string& userId, const std::string& email) override;
    CreatedSession createCheckoutSession(const CheckoutRequest& request) override;
    void expireCheckoutSession(const std::string& sessionId) override;
    std::string createPortalSession(const std::string& customerId, const std::string& returnUrl) override;
    CreatedRefund createRefund(const RefundRequest& request) override;
    // DELETE /v1/subscriptions/{id}; a subscription Stripe reports as already canceled is fine.
    void cancelSubscriptionNow(const std::string& subscriptionId) override;
    // POST /v1/subscriptions/{id} cancel_at_period_end.
    void setCancelAtPeriodEnd(const std::string& subscriptionId, bool cancel) override;
    // GET the subscription for its item, then POST /v1/subscriptions/{id} with the new inline price
    // on that item, proration_behavior=always_invoice and payment_behavior=pending_if_incomplete:
    // a declined card leaves the subscription as it was (pending_update, or HTTP 402).
    bool changePlan(const PlanChange& change) override;

    struct Connection; // where and how requests go: defined in the .cpp

private:
    std::unique_ptr<const Connection> connection_;
};

// The form createCheckoutSession sends (exposed for tests and for reading what goes to Stripe).
FormBody checkoutSessionForm(const CheckoutRequest& request);

} // namespace storefront::billing

#pragma once
// The payment-provider interface: Stripe (stripe_provider.h) and the built-in local test provider
// (local_provider.h). A provider creates customers, hosted checkouts and billing-portal sessions;
// what happens afterwards reaches us as events (event_processor.h), never as return values.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace storefront::billing {

// The provider refused or could not be reached. Mapped to 502 payment_provider_error.
class ProviderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What is being bought. Amounts are minor units and always come from our database.
struct CheckoutLine {
    std::string name;         // product name (plan name appended for subscriptions)
    std::int64_t unitAmount = 0;
    std::string currency;     // "NZD" | "AUD" | "USD" (providers get it lower-cased)
    int quantity = 1;
    std::string interval;     // subscription mode: "month" | "year"
    int intervalCount = 1;    // subscription mode: 1 | 3 | 6 | 12
};

struct CheckoutRequest {
    std::string checkoutId;    // checkout_sessions.id: client_reference_id and idempotency key
    std::string mode;          // "payment" | "subscription"
    std::string customerId;    // the provider's customer id for the buyer
    CheckoutLine line;
    std::string successUrl;    // absolute, from STOREFRONT_PUBLIC_URL
    std::string cancelUrl;
    std::int64_t expiresAt = 0; // unix seconds
    // Copied to the session's metadata and, in subscription mode, to the subscription's metadata
    // (checkout_id, user_id, product_id, pricing_plan_id), so every event names its owner.
    std::map<std::string, std::string> metadata;
    // A physical product: collect a shipping address in one of these countries (ISO 3166-1
    // alpha-2) and a phone number. Empty: a digital-only checkout, which never asks.
    std::vector<std::string> shippingCountries;
    // Subscription mode: a trial of this many days before the first charge (0: none).
    int trialDays = 0;
};

struct CreatedSession {
    std::string id;  // the provider's session id (cs_...)
    std::string url; // where the browser goes to pay
};

// A refund of (part of) an order's payment.
struct RefundRequest {
    std::string refundId;  // order_refunds.id or subscription_refunds.id: the idempotency key, and metadata refund_id
    std::string orderId;   // metadata order_id
    std::string paymentId; // the provider's payment (Stripe: the payment intent)
    std::int64_t amount = 0; // minor units, > 0
    std::string reason;      // staff's words (metadata reason), may be empty
    std::string subscriptionId; // metadata subscription_id: a subscription payment's refund (orderId then empty)
};

// A switch of a subscription to another plan of the same product, prorated
// (billing/subscriptions/proration.h computes the figures; Stripe computes its own by the same rule).
struct PlanChange {
    std::string changeId;       // our id for this change: the idempotency key
    std::string subscriptionId; // the provider's (sub_...)
    std::string planId;         // ours, for the metadata
    CheckoutLine line;          // the new plan: name, price, interval
    std::int64_t amountDueNow = 0, credit = 0, balanceAfter = 0;
    std::int64_t periodStart = 0, periodEnd = 0; // unix seconds: the period after the change
};

struct CreatedRefund {
    std::string id;     // the provider's refund id (re_...)
    std::string status; // pending | succeeded | failed | canceled | requires_action
};

class PaymentProvider {
public:
    virtual ~PaymentProvider() = default;

    // "stripe" or "local": stored as payments_provider / provider on our rows.
    virtual std::string name() const = 0;

    // Creates the provider's customer for a user. Called once per user and provider (the id is
    // stored); idempotent on the user id, so a retried or concurrent call yields the same customer.
    virtual std::string createCustomer(const std::string& userId, const std::string& email) = 0;

    // Creates a hosted checkout; idempotent on request.checkoutId.
    virtual CreatedSession createCheckoutSession(const CheckoutRequest& request) = 0;

    // Expires an open checkout (the buyer abandoned it). The provider then emits
    // checkout.session.expired. Expiring a session that is no longer open is not an error.
    virtual void expireCheckoutSession(const std::string& sessionId) = 0;

    // A billing-portal session for the customer; returns its URL.
    virtual std::string createPortalSession(const std::string& customerId, const std::string& returnUrl) = 0;

    // Refunds `amount` of a payment; idempotent on request.refundId (a retry returns the same refund).
    virtual CreatedRefund createRefund(const RefundRequest& request) = 0;

    // Cancels a subscription now (no further charges; closing an account). The provider then emits
    // customer.subscription.deleted. Cancelling one that has already ended is not an error.
    virtual void cancelSubscriptionNow(const std::string& subscriptionId) = 0;

    // Schedules the subscription to end at its period end (true), or undoes that (false). The
    // provider then emits customer.subscription.updated.
    virtual void setCancelAtPeriodEnd(const std::string& subscriptionId, bool cancel) = 0;

    // Switches the plan and charges the proration now. False when the card was declined: the
    // subscription is unchanged. The provider then emits invoice.paid and customer.subscription.updated.
    virtual bool changePlan(const PlanChange& change) = 0;
};

} // namespace storefront::billing

#pragma once
// The one set of readers of Stripe's JSON (the pinned API version's shapes): the event inbox and
// the refunds both read the provider's objects through these. A field that is absent, null or of
// another type reads as absent; nothing here throws on a provider's payload.
#include "billing/orders/shipping.h"
#include "billing/provider/provider_money.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::billing::stripe_json {

// A non-empty string member.
std::optional<std::string> str(const nlohmann::json& object, const char* key);
// An integer member.
std::optional<std::int64_t> integer(const nlohmann::json& object, const char* key);
// An object member, else an empty object.
const nlohmann::json& member(const nlohmann::json& object, const char* key);
// An expandable field: "sub_123" or {"id": "sub_123", ...}.
std::optional<std::string> idOf(const nlohmann::json& object, const char* key);

// A Refund object; absent without an id, a positive amount and a known currency.
std::optional<ProviderRefund> readRefund(const nlohmann::json& refund);
// A Charge (charge.refunded): its payment, amount_refunded and any refunds it lists.
ProviderCharge readCharge(const nlohmann::json& charge);
// A Dispute; absent without an id, an amount of 0 or more and a known currency.
std::optional<ProviderDispute> readDispute(const nlohmann::json& dispute);

// The address of a completed Checkout Session: `collected_information.shipping_details` and
// `customer_details.phone` in the pinned API version (2025-09-30.clover), top-level
// `shipping_details` (and `shipping`) before it. Values longer than the stored limits are cut.
// nullopt when the session carries no address.
std::optional<ShippingAddress> shippingFromSession(const nlohmann::json& session);

// The session fields the local test provider sends for an address, in the same shape.
void addToSession(nlohmann::json& session, const ShippingAddress& address);


// Stripe's subscription status as ours: active, trialing, past_due (past_due, unpaid), pending
// (incomplete, paused), cancelled (canceled), expired (incomplete_expired). Unknown words: pending.
std::string statusFromStripe(const std::string& stripeStatus);
// Ours as Stripe's word (the local test provider's events speak Stripe).
std::string stripeStatusOf(const std::string& status);

// A Subscription's current period: on its items in the current API, on the object before it.
std::optional<std::int64_t> periodStart(const nlohmann::json& subscription);
std::optional<std::int64_t> periodEnd(const nlohmann::json& subscription);
// The subscription an Invoice belongs to: parent.subscription_details.subscription in the current
// API, subscription before it.
std::optional<std::string> invoiceSubscription(const nlohmann::json& invoice);
// The latest end of an Invoice's line periods.
std::optional<std::int64_t> invoicePeriodEnd(const nlohmann::json& invoice);
// The payment intent that paid an Invoice: payments.data[].payment.payment_intent in the current
// API (when the payload carries it), payment_intent before it.
std::optional<std::string> invoicePaymentIntent(const nlohmann::json& invoice);

} // namespace storefront::billing::stripe_json

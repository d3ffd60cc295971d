#pragma once
// The one set of readers of Stripe's JSON (the pinned API version's shapes): the event inbox and
// the refunds both read the provider's objects through these. A field that is absent, null or of
// another type reads as absent; nothing here throws on a provider's payload.
#include "billing/orders/refund.h"

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

} // namespace storefront::billing::stripe_json

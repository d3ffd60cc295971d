#pragma once
// Helpers for the back-office API tests: one caller of each kind (visitor, customer, admin before
// the two-factor step, admin past it), the role check every admin endpoint gets, PATCH, raw-body
// requests, and orders arranged directly in the database.
#include "api/billing_support.h"

#include <cstdint>
#include <optional>
#include <string>

namespace testing_support {

struct Callers {
    Headers visitor;
    Headers customer;
    Headers adminAal1; // an admin with a verified factor, signed in but not stepped up
    Headers admin;     // an admin at aal2
    std::string adminId, adminEmail;
};
// Made once per test binary.
const Callers& callers();

// Each role gets what it should from `method path` (body sent as JSON unless null): the visitor
// 401, the customer 403 with the spec's text, the admin at aal1 403 insufficient_aal. The admin at
// aal2 is left to the test (its answer depends on the endpoint).
void expectStaffOnly(const std::string& method, const std::string& path, const nlohmann::json& body = nullptr);

// A request with a raw body and Content-Type.
HttpResult sendRaw(const std::string& method, const std::string& path, const std::string& body, const std::string& type,
                   const Headers& headers);

struct ArrangedOrder {
    std::string id, orderNumber;
};
// An order (with one item) written directly: status, total in NZD cents, created at `createdAt`
// (ISO-8601 UTC), optional user and customer email. The item is of a physical product (the order
// can ship) unless `physical` is false (a digital order: nothing to ship).
ArrangedOrder insertOrder(const std::string& status, std::int64_t total, const std::string& createdAt,
                          const std::optional<std::string>& email = std::nullopt,
                          const std::optional<std::string>& userId = std::nullopt, const std::string& currency = "NZD",
                          bool physical = true);

// The staff's view of one order (GET /api/v1/admin/orders/{id}'s "order"); a failed call fails the test.
nlohmann::json adminOrder(const std::string& orderId);

// An address staff give when they mark an order with goods to send as paid (shipping_address).
inline nlohmann::json staffShippingAddress() {
    return {{"name", "Aroha Ngata"}, {"line1", "1 Queen St"}, {"city", "Auckland"}, {"postal_code", "1010"}, {"country", "NZ"}};
}

// Audit entries with this action and target id.
std::int64_t auditCount(const std::string& action, const std::string& targetId);

} // namespace testing_support

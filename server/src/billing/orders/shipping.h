#pragma once
// Shipping and fulfilment rules that need no database (docs/billing.md, "Shipping and
// fulfilment"): the allowed-countries setting, the address a buyer types on the local test page,
// the address Stripe collected (in the pinned API version's shape), and their JSON.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

// Where a physical order goes: a snapshot on the order (never a link to something that changes).
struct ShippingAddress {
    std::string name, line1;
    std::optional<std::string> line2;
    std::string city;
    std::optional<std::string> state; // Stripe collects it where a country has states (AU)
    std::string postalCode;
    std::string country; // ISO 3166-1 alpha-2, upper case
    std::optional<std::string> phone;
};

// What the order says about its delivery.
struct Fulfilment {
    std::optional<ShippingAddress> address;
    std::optional<std::string> carrier, trackingNumber, shippedAt;
};

// Limits (code points), also the page's maxlength attributes.
inline constexpr std::size_t kMaxAddressLine = 100;
inline constexpr std::size_t kMaxPostalCode = 12;
inline constexpr std::size_t kMaxPhone = 30;
inline constexpr std::size_t kMaxCarrier = 60;
inline constexpr std::size_t kMaxTrackingNumber = 60;

// STOREFRONT_SHIPPING_COUNTRIES: comma-separated ISO 3166-1 alpha-2 codes ("NZ,AU"), upper-cased,
// without repeats. Throws std::invalid_argument naming a bad entry, or for an empty list.
std::vector<std::string> parseCountryList(const std::string& text);

// The English name of a country we may ship to ("New Zealand"), else the code itself.
std::string countryName(const std::string& code);

// Checks an address's fields (name, line1, line2, city, state, postal_code, country, phone): the
// local test page's and staff's. Required fields, lengths, the country in `allowed`, a New Zealand
// or Australian postcode of four digits, a phone of 6 to 15 digits (staff may leave it out:
// `phoneRequired` false). Returns the field messages (empty when it is valid) and, when valid, the
// address in `out` (trimmed, country upper-cased, empty line2 and state dropped).
std::map<std::string, std::string> validateAddress(const std::map<std::string, std::string>& form,
                                                   const std::vector<std::string>& allowed, ShippingAddress& out,
                                                   bool phoneRequired = true);

// Whether two addresses are the same in every field.
bool sameAddress(const ShippingAddress& a, const ShippingAddress& b);

// {name, line1, line2, city, state, postal_code, country, phone}, or null.
nlohmann::json toJson(const std::optional<ShippingAddress>& address);
// Adds shipping_address, carrier, tracking_number and shipped_at to an order's JSON.
void addFulfilment(nlohmann::json& order, const Fulfilment& fulfilment);

// The lines of an address as a label prints them.
std::vector<std::string> addressLines(const ShippingAddress& address);
// Those lines on one line, comma-separated (an order's history note).
std::string addressLine(const ShippingAddress& address);

// Staff's carrier and tracking number: trimmed, empty as absent, at most the limits above.
// Returns the field messages for carrier / tracking_number.
std::map<std::string, std::string> checkTracking(std::optional<std::string>& carrier,
                                                 std::optional<std::string>& trackingNumber);

} // namespace storefront::billing

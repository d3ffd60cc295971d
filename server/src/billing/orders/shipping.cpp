#include "billing/orders/shipping.h"

#include "common/text.h"

#include <Poco/String.h>

#include <algorithm>
#include <stdexcept>

namespace storefront::billing {

namespace {

bool isCountryCode(const std::string& code) {
    return code.size() == 2 && std::all_of(code.begin(), code.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

bool hasControl(const std::string& text) { return !common::isOneLine(text); }

std::string field(const std::map<std::string, std::string>& form, const char* name) {
    auto it = form.find(name);
    return it == form.end() ? std::string() : Poco::trim(it->second);
}

std::string tooLong(std::size_t limit) { return "Must be at most " + std::to_string(limit) + " characters."; }

} // namespace

std::vector<std::string> parseCountryList(const std::string& list) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        auto comma = list.find(',', start);
        if (comma == std::string::npos) comma = list.size();
        const auto code = Poco::toUpper(Poco::trim(list.substr(start, comma - start)));
        start = comma + 1;
        if (code.empty()) continue;
        if (!isCountryCode(code))
            throw std::invalid_argument("'" + code + "' is not an ISO 3166-1 alpha-2 country code (such as NZ)");
        if (std::find(out.begin(), out.end(), code) == out.end()) out.push_back(code);
    }
    if (out.empty()) throw std::invalid_argument("the list of shipping countries is empty");
    return out;
}

std::string countryName(const std::string& code) {
    static const std::map<std::string, std::string> names = {
        {"NZ", "New Zealand"}, {"AU", "Australia"}, {"US", "United States"}, {"GB", "United Kingdom"},
        {"CA", "Canada"},      {"IE", "Ireland"},   {"SG", "Singapore"},     {"FJ", "Fiji"},
        {"WS", "Samoa"},       {"TO", "Tonga"},     {"CK", "Cook Islands"},  {"JP", "Japan"},
        {"DE", "Germany"},     {"FR", "France"}};
    auto it = names.find(code);
    return it == names.end() ? code : it->second;
}

std::map<std::string, std::string> validateAddress(const std::map<std::string, std::string>& form,
                                                   const std::vector<std::string>& allowed, ShippingAddress& out,
                                                   bool phoneRequired) {
    std::map<std::string, std::string> errors;
    auto line = [&](const char* name, bool required) -> std::string {
        auto value = field(form, name);
        if (value.empty()) {
            if (required) errors[name] = "This field is required.";
        } else if (common::codePoints(value) > kMaxAddressLine) {
            errors[name] = tooLong(kMaxAddressLine);
        } else if (hasControl(value)) {
            errors[name] = "Must be a single line of text.";
        }
        return value;
    };
    ShippingAddress a;
    a.name = line("name", true);
    a.line1 = line("line1", true);
    auto line2 = line("line2", false);
    if (!line2.empty()) a.line2 = line2;
    a.city = line("city", true);
    auto state = line("state", false);
    if (!state.empty()) a.state = state;

    a.country = Poco::toUpper(field(form, "country"));
    if (a.country.empty()) errors["country"] = "This field is required.";
    else if (std::find(allowed.begin(), allowed.end(), a.country) == allowed.end()) {
        std::string names;
        for (const auto& c : allowed) names += (names.empty() ? "" : ", ") + countryName(c);
        errors["country"] = "We ship to " + names + " only.";
    }

    a.postalCode = Poco::toUpper(field(form, "postal_code"));
    const bool fourDigits = a.country == "NZ" || a.country == "AU";
    if (a.postalCode.empty()) errors["postal_code"] = "This field is required.";
    else if (fourDigits) {
        if (a.postalCode.size() != 4 || !std::all_of(a.postalCode.begin(), a.postalCode.end(), ::isdigit))
            errors["postal_code"] = std::string(a.country == "NZ" ? "A New Zealand" : "An Australian") +
                                    " postcode is four digits.";
    } else if (a.postalCode.size() > kMaxPostalCode ||
               !std::all_of(a.postalCode.begin(), a.postalCode.end(),
                            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '-'; })) {
        errors["postal_code"] = "Use letters, digits, spaces and hyphens, at most " + std::to_string(kMaxPostalCode) + ".";
    }

    const auto phone = field(form, "phone");
    const auto digits = std::count_if(phone.begin(), phone.end(), ::isdigit);
    if (phone.empty()) {
        if (phoneRequired) errors["phone"] = "This field is required.";
    } else if (phone.size() > kMaxPhone ||
             !std::all_of(phone.begin(), phone.end(),
                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || std::string_view(" +-().").find(c) != std::string_view::npos; }) ||
             digits < 6 || digits > 15)
        errors["phone"] = "Enter a phone number of 6 to 15 digits (spaces, +, - and brackets allowed).";
    else a.phone = phone;

    if (errors.empty()) out = std::move(a);
    return errors;
}

nlohmann::json toJson(const std::optional<ShippingAddress>& address) {
    if (!address) return nullptr;
    auto orNull = [](const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    const auto& a = *address;
    return {{"name", a.name},         {"line1", a.line1},
            {"line2", orNull(a.line2)}, {"city", a.city},
            {"state", orNull(a.state)}, {"postal_code", a.postalCode},
            {"country", a.country},   {"phone", orNull(a.phone)}};
}

void addFulfilment(nlohmann::json& order, const Fulfilment& f) {
    auto orNull = [](const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    order["shipping_address"] = toJson(f.address);
    order["carrier"] = orNull(f.carrier);
    order["tracking_number"] = orNull(f.trackingNumber);
    order["shipped_at"] = orNull(f.shippedAt);
}

std::vector<std::string> addressLines(const ShippingAddress& a) {
    std::vector<std::string> lines = {a.name, a.line1};
    if (a.line2) lines.push_back(*a.line2);
    std::string city = a.city;
    if (a.state) city += (city.empty() ? "" : " ") + *a.state;
    city += (city.empty() ? "" : " ") + a.postalCode;
    lines.push_back(city);
    lines.push_back(countryName(a.country));
    if (a.phone) lines.push_back("Phone: " + *a.phone);
    return lines;
}

std::string addressLine(const ShippingAddress& a) {
    std::string out;
    for (const auto& l : addressLines(a)) out += (out.empty() ? "" : ", ") + l;
    return out;
}

bool sameAddress(const ShippingAddress& a, const ShippingAddress& b) {
    return a.name == b.name && a.line1 == b.line1 && a.line2 == b.line2 && a.city == b.city && a.state == b.state &&
           a.postalCode == b.postalCode && a.country == b.country && a.phone == b.phone;
}

std::map<std::string, std::string> checkTracking(std::optional<std::string>& carrier,
                                                 std::optional<std::string>& trackingNumber) {
    std::map<std::string, std::string> errors;
    auto check = [&](const char* name, std::optional<std::string>& value, std::size_t limit) {
        if (!value) return;
        *value = Poco::trim(*value);
        if (value->empty()) value.reset();
        else if (common::codePoints(*value) > limit) errors[name] = tooLong(limit);
        else if (hasControl(*value)) errors[name] = "Must be a single line of text.";
    };
    check("carrier", carrier, kMaxCarrier);
    check("tracking_number", trackingNumber, kMaxTrackingNumber);
    return errors;
}

} // namespace storefront::billing

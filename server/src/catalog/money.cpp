#include "catalog/money.h"

namespace storefront::catalog {
namespace {

// Magnitude as unsigned, so that INT64_MIN does not overflow when negated.
std::uint64_t magnitude(std::int64_t v) {
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

std::string cents(std::uint64_t mag) {
    const auto c = static_cast<char>(mag % 100);
    return {static_cast<char>('0' + c / 10), static_cast<char>('0' + c % 10)};
}

} // namespace

std::string formatMinorUnits(std::int64_t minor) {
    const std::uint64_t mag = magnitude(minor);
    std::string out = minor < 0 ? "-" : "";
    out += std::to_string(mag / 100);
    out += '.';
    out += cents(mag);
    return out;
}

std::string formatNzd(std::int64_t minor) { return formatMoney(minor, "NZD"); }

std::string formatMoney(std::int64_t minor, const std::string& currency) {
    const std::string symbol = currency == "AUD" ? "A$" : currency == "USD" ? "US$" : "$";
    const std::uint64_t mag = magnitude(minor);
    const std::string whole = std::to_string(mag / 100);
    std::string grouped;
    grouped.reserve(whole.size() + whole.size() / 3);
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
        grouped += whole[i];
    }
    return (minor < 0 ? "-" : "") + symbol + grouped + '.' + cents(mag);
}

} // namespace storefront::catalog

namespace storefront::catalog {

std::optional<std::int64_t> parseMajorUnits(std::string_view text) {
    constexpr std::size_t kMaxWholeDigits = 9;
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    auto digits = [](std::string_view s) {
        for (char c : s)
            if (c < '0' || c > '9') return false;
        return true;
    };
    if (whole.empty() || whole.size() > kMaxWholeDigits || !digits(whole)) return std::nullopt;
    if (dot != std::string_view::npos && (fraction.empty() || fraction.size() > 2 || !digits(fraction))) return std::nullopt;
    std::int64_t minor = 0;
    for (char c : whole) minor = minor * 10 + (c - '0');
    minor *= 100;
    if (!fraction.empty()) minor += (fraction[0] - '0') * 10 + (fraction.size() == 2 ? fraction[1] - '0' : 0);
    if (minor > kMaxPriceMinorUnits) return std::nullopt;
    return minor;
}

bool isCurrency(const std::string& currency) { return currency == "NZD" || currency == "AUD" || currency == "USD"; }

} // namespace storefront::catalog

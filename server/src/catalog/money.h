#pragma once
// Formatting of integer minor-unit amounts (cents). Money is never a floating-point number here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace storefront::catalog {

// Plain decimal string with two places and no currency symbol or grouping, for JSON-LD prices and
// machine-readable text: 4900 -> "49.00", -5 -> "-0.05", 0 -> "0.00", 123456 -> "1234.56".
std::string formatMinorUnits(std::int64_t minor);

// en-NZ display form for emails: 4900 -> "$49.00", 123456 -> "$1,234.56", -5 -> "-$0.05".
std::string formatNzd(std::int64_t minor);

// The same for any plan currency, as en-NZ shows it: NZD "$15.00", AUD "A$15.00", USD "US$15.00".
std::string formatMoney(std::int64_t minor, const std::string& currency);

// The currencies the shop sells in and books: "NZD", "AUD", "USD" (upper case).
bool isCurrency(const std::string& currency);

} // namespace storefront::catalog

namespace storefront::catalog {

// The largest price staff can enter, in major units (a typo guard; far above any real price).
inline constexpr std::int64_t kMaxPriceMinorUnits = 100'000'000; // 1,000,000.00

// A price typed in major units, parsed exactly (never through floating point): digits with at most
// two decimals, "19.99" -> 1999, "0.1" -> 10, "7" -> 700. nullopt for anything else: a sign,
// an exponent ("1e3"), a third decimal ("0.005"), spaces, "", ".5", "5." or more than
// kMaxPriceMinorUnits.
std::optional<std::int64_t> parseMajorUnits(std::string_view text);

} // namespace storefront::catalog

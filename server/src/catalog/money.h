#pragma once
// Formatting of integer minor-unit amounts (cents). Money is never a floating-point number here.
#include <cstdint>
#include <string>

namespace storefront::catalog {

// Plain decimal string with two places and no currency symbol or grouping, for JSON-LD prices and
// machine-readable text: 4900 -> "49.00", -5 -> "-0.05", 0 -> "0.00", 123456 -> "1234.56".
std::string formatMinorUnits(std::int64_t minor);

// en-NZ display form for emails: 4900 -> "$49.00", 123456 -> "$1,234.56", -5 -> "-$0.05".
std::string formatNzd(std::int64_t minor);

// The same for any plan currency, as en-NZ shows it: NZD "$15.00", AUD "A$15.00", USD "US$15.00".
std::string formatMoney(std::int64_t minor, const std::string& currency);

} // namespace storefront::catalog

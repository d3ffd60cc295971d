#include "billing/books/tax_invoice.h"

#include <algorithm>

#include "common/nz_time.h"
#include "db/database.h"

#include <Poco/String.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace storefront::billing {

std::int64_t gstContent(std::int64_t amount) {
    // 3/23 to the nearest cent, half up: floor((6a + 23) / 46) for a >= 0 (exact integer
    // arithmetic, no floating point); a negative amount mirrors a positive one.
    if (amount < 0) return -gstContent(-amount);
    return (amount * 6 + 23) / 46;
}

std::int64_t creditNoteGst(std::int64_t invoiceTotal, std::int64_t invoiceGst, std::int64_t creditedBefore,
                           std::int64_t gstCreditedBefore, std::int64_t amount) {
    const std::int64_t after = creditedBefore + amount;
    const std::int64_t gstAfter = after >= invoiceTotal ? invoiceGst : std::min(gstContent(after), invoiceGst);
    return std::max<std::int64_t>(0, gstAfter - gstCreditedBefore);
}

namespace {

int weightedCheck(const std::array<int, 8>& digits, const std::array<int, 8>& weights) {
    int sum = 0;
    for (std::size_t i = 0; i < 8; ++i) sum += digits[i] * weights[i];
    const int remainder = sum % 11;
    return remainder == 0 ? 0 : 11 - remainder;
}

} // namespace

std::optional<std::string> normalizeGstNumber(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
        else if (c != '-' && c != ' ') return std::nullopt;
    }
    if (digits.size() == 8) digits.insert(digits.begin(), '0');
    if (digits.size() != 9) return std::nullopt;
    const long value = std::stol(digits);
    if (value < 10000000 || value > 150000000) return std::nullopt;
    // Inland Revenue's algorithm: the first eight digits weighted 3,2,7,6,5,4,3,2, mod 11; a
    // result of 10 is tried again with 7,4,3,2,5,2,7,6, and 10 again means no valid number.
    std::array<int, 8> base{};
    for (std::size_t i = 0; i < 8; ++i) base[i] = digits[i] - '0';
    int check = weightedCheck(base, {3, 2, 7, 6, 5, 4, 3, 2});
    if (check == 10) check = weightedCheck(base, {7, 4, 3, 2, 5, 2, 7, 6});
    if (check == 10 || check != digits[8] - '0') return std::nullopt;
    const auto trimmed = std::to_string(value);
    // 49091850 -> 49-091-850, 136410132 -> 136-410-132
    return trimmed.substr(0, trimmed.size() - 6) + "-" + trimmed.substr(trimmed.size() - 6, 3) + "-" +
           trimmed.substr(trimmed.size() - 3);
}

std::string invoiceNumber(const std::string& prefix, std::int64_t sequence) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(sequence));
    return prefix + digits;
}

std::string nzDate(const std::string& isoTimestamp) {
    const nz::Instant at{std::chrono::seconds(db::epochFromTimestamp(isoTimestamp))};
    return date::format("%F", date::sys_days(nz::dateOf(at)));
}

std::vector<std::string> parseCurrencyList(std::string_view text) {
    std::vector<std::string> out;
    std::string item;
    auto flush = [&] {
        item = Poco::trim(item);
        if (item.empty()) return;
        if (item.size() != 3 || !std::isalpha(static_cast<unsigned char>(item[0])) ||
            !std::isalpha(static_cast<unsigned char>(item[1])) || !std::isalpha(static_cast<unsigned char>(item[2])))
            throw std::invalid_argument("'" + item + "' is not a three-letter currency code");
        out.push_back(Poco::toUpper(item));
        item.clear();
    };
    for (char c : text) {
        if (c == ',') flush();
        else item += c;
    }
    flush();
    return out;
}

} // namespace storefront::billing

#include "backoffice/nz_time.h"

namespace storefront::backoffice {

namespace {

constexpr std::int64_t kDay = 86400;
constexpr std::int64_t kHour = 3600;

// Days since 1970-01-01 of a civil date (proleptic Gregorian), and back (H. Hinnant's algorithms).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t yearOf(std::int64_t days) {
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

// 0 = Sunday.
std::int64_t weekday(std::int64_t days) { return ((days % 7) + 11) % 7; }

} // namespace

std::int64_t nzOffsetSeconds(std::int64_t utc) {
    const std::int64_t year = yearOf((utc + 12 * kHour) / kDay);
    // First Sunday of April: DST ends at 03:00 NZDT = 14:00 UTC the day before.
    std::int64_t april1 = daysFromCivil(year, 4, 1);
    const std::int64_t firstSundayApril = april1 + (7 - weekday(april1)) % 7;
    const std::int64_t dstEnds = firstSundayApril * kDay - 10 * kHour; // 14:00 UTC on the Saturday
    // Last Sunday of September: DST starts at 02:00 NZST = 14:00 UTC the day before.
    const std::int64_t sept30 = daysFromCivil(year, 9, 30);
    const std::int64_t lastSundaySept = sept30 - weekday(sept30);
    const std::int64_t dstStarts = lastSundaySept * kDay - 10 * kHour;
    const bool daylight = utc < dstEnds || utc >= dstStarts;
    return (daylight ? 13 : 12) * kHour;
}

std::int64_t nzDayStart(std::int64_t utc, int daysBack) {
    const std::int64_t localDay = (utc + nzOffsetSeconds(utc)) / kDay - daysBack;
    const std::int64_t localMidnight = localDay * kDay;
    // Midnight is hours away from either change (02:00 and 03:00), so the offset 12 hours earlier
    // in UTC terms is the one in force at that midnight.
    return localMidnight - nzOffsetSeconds(localMidnight - 12 * kHour);
}

} // namespace storefront::backoffice

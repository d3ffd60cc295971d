#pragma once
// New Zealand time (Pacific/Auckland) from the system's time-zone database (/usr/share/zoneinfo,
// Debian's tzdata, read by the date library's date-tz): calendar days and months of an instant for
// day-based figures, reports and tax invoices. No daylight-saving rule is written here, so a change
// in the law arrives with a tzdata update. Instants come from the server's clock (common/clock.h).
#include <date/date.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace storefront::nz {

using Instant = std::chrono::sys_seconds;

// The New Zealand calendar date at `at`.
date::year_month_day dateOf(Instant at);

// The instant a New Zealand calendar day (or month) began: its local midnight (the earliest
// instant of the day, were midnight ever skipped).
Instant startOfDay(date::year_month_day day);
Instant startOfMonth(date::year_month month);

// The offset from UTC in force at `at`: +12:00 (NZST) or +13:00 (NZDT).
std::chrono::seconds offsetAt(Instant at);

// `at` as New Zealand local time with its offset: "2026-04-05T02:30:00+12:00".
std::string formatWithOffset(Instant at);

// The instant the New Zealand day `daysBack` days before the one containing `at` began: daysBack
// 0 is today's midnight; the last 30 days start at 29.
Instant dayStart(Instant at, int daysBack);

// A calendar date written YYYY-MM-DD (a real day: 2026-02-30 is none); nullopt otherwise.
std::optional<date::year_month_day> parseDate(const std::string& text);

// The New Zealand calendar day of `at` written out: "5 April 2026".
std::string longDate(Instant at);

// An instant from the server's clock, to the second.
template <class Duration> Instant instantOf(std::chrono::time_point<std::chrono::system_clock, Duration> at) {
    return std::chrono::floor<std::chrono::seconds>(at);
}

} // namespace storefront::nz

#pragma once
// New Zealand time for the back office's day-based figures (the revenue window): Pacific/Auckland,
// NZST (UTC+12) and NZDT (UTC+13) from the last Sunday of September 02:00 NZST to the first Sunday
// of April 03:00 NZDT (the rule since 2007). Pure arithmetic, no time-zone database.
#include <cstdint>

namespace storefront::backoffice {

// The offset from UTC, in seconds, of New Zealand time at the instant `utcEpoch`.
std::int64_t nzOffsetSeconds(std::int64_t utcEpoch);

// The UTC instant (unix seconds) at which the New Zealand calendar day `daysBack` days before the
// one containing `utcEpoch` began. daysBack 0 is today's midnight; the last 30 days start at 29.
std::int64_t nzDayStart(std::int64_t utcEpoch, int daysBack);

} // namespace storefront::backoffice

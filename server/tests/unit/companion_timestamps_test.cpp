// The companion area's clock helpers: stored timestamps to clock readings and back, and calendar
// months for a redemption's pro period (the day clamped to the month's end).
#include "companion/timestamps.h"

#include <gtest/gtest.h>

namespace companion = storefront::companion;

TEST(CompanionTimestamps, TimestampsRoundTripWithMilliseconds) {
    const std::int64_t at = companion::millisOf("2026-11-25T09:30:01.250Z");
    EXPECT_EQ(companion::timestampAt(at), "2026-11-25T09:30:01.250Z");
    EXPECT_EQ(companion::millisOf(companion::timestampAt(at + companion::kDayMillis)) - at, companion::kDayMillis);
    // PostgreSQL's form reads the same.
    EXPECT_EQ(companion::millisOf("2026-11-25 09:30:01.25+00"), at);
}

TEST(CompanionTimestamps, MonthsAreCalendarMonthsClampedToTheMonthsEnd) {
    EXPECT_EQ(companion::addMonths(companion::millisOf("2026-01-15T10:00:00.000Z"), 3), "2026-04-15T10:00:00.000Z");
    EXPECT_EQ(companion::addMonths(companion::millisOf("2026-01-31T10:00:00.000Z"), 1), "2026-02-28T10:00:00.000Z");
    EXPECT_EQ(companion::addMonths(companion::millisOf("2027-12-31T23:59:59.999Z"), 2), "2028-02-29T23:59:59.999Z");
    EXPECT_EQ(companion::addMonths(companion::millisOf("2026-11-30T00:00:00.000Z"), 12), "2027-11-30T00:00:00.000Z");
}

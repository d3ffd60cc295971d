#include "backoffice/nz_time.h"

#include <gtest/gtest.h>

namespace {

using storefront::backoffice::nzDayStart;
using storefront::backoffice::nzOffsetSeconds;

constexpr std::int64_t kHour = 3600;

TEST(NzTime, OffsetFollowsDaylightSaving) {
    EXPECT_EQ(nzOffsetSeconds(1775311199), 13 * kHour); // 2026-04-04T13:59:59Z, still NZDT
    EXPECT_EQ(nzOffsetSeconds(1775311200), 12 * kHour); // 2026-04-04T14:00:00Z, NZST
    EXPECT_EQ(nzOffsetSeconds(1790431199), 12 * kHour); // 2026-09-26T13:59:59Z
    EXPECT_EQ(nzOffsetSeconds(1790431200), 13 * kHour); // 2026-09-26T14:00:00Z, NZDT
    EXPECT_EQ(nzOffsetSeconds(1767225600), 13 * kHour); // 2026-01-01T00:00:00Z
}

TEST(NzTime, TheLastThirtyDaysStartAtANewZealandMidnight) {
    // 2026-11-25T08:00Z is 21:00 on the 25th in Auckland: the window starts 2026-10-27 00:00 NZDT.
    EXPECT_EQ(nzDayStart(1795593600, 29), 1793012400); // 2026-10-26T11:00:00Z
    // Across the change to daylight time: 2026-10-21 01:30 NZDT back to 2026-09-22 00:00 NZST.
    EXPECT_EQ(nzDayStart(1792499400, 29), 1789992000); // 2026-09-21T12:00:00Z
    // Today's midnight.
    EXPECT_EQ(nzDayStart(1795593600, 0), 1795593600 - 21 * kHour);
}

} // namespace

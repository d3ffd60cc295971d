// New Zealand time from the time-zone database, across both daylight-saving changes: the first
// Sunday in April (03:00 NZDT -> 02:00 NZST, 02:00-03:00 happens twice) and the last Sunday in
// September (02:00 NZST -> 03:00 NZDT, 02:00-03:00 never happens).
#include "common/nz_time.h"
#include "utc_text.h"

#include <date/date.h>
#include <gtest/gtest.h>

#include <cstdio>

namespace {

namespace nz = storefront::nz;
using namespace date::literals;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

using testing_support::utc;

TEST(NzTime, OffsetFollowsDaylightSaving) {
    EXPECT_EQ(nz::offsetAt(utc("2026-04-04T13:59:59Z")), hours(13)); // still NZDT
    EXPECT_EQ(nz::offsetAt(utc("2026-04-04T14:00:00Z")), hours(12)); // NZST
    EXPECT_EQ(nz::offsetAt(utc("2026-09-26T13:59:59Z")), hours(12));
    EXPECT_EQ(nz::offsetAt(utc("2026-09-26T14:00:00Z")), hours(13)); // NZDT
    EXPECT_EQ(nz::offsetAt(utc("2026-01-01T00:00:00Z")), hours(13));
    EXPECT_EQ(nz::offsetAt(utc("2026-07-01T00:00:00Z")), hours(12));
}

TEST(NzTime, TheRepeatedHourInAprilShowsBothOffsets) {
    // 2026-04-05: 02:30 happens first in NZDT, then an hour later again in NZST.
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T12:59:59Z")), "2026-04-05T01:59:59+13:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T13:30:00Z")), "2026-04-05T02:30:00+13:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T13:59:59Z")), "2026-04-05T02:59:59+13:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T14:00:00Z")), "2026-04-05T02:00:00+12:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T14:30:00Z")), "2026-04-05T02:30:00+12:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-04-04T15:00:00Z")), "2026-04-05T03:00:00+12:00");
    // Both 02:30s are on the 5th, and that day is 25 hours long.
    EXPECT_EQ(nz::dateOf(utc("2026-04-04T13:30:00Z")), 2026_y / 4 / 5);
    EXPECT_EQ(nz::dateOf(utc("2026-04-04T14:30:00Z")), 2026_y / 4 / 5);
    EXPECT_EQ(nz::startOfDay(2026_y / 4 / 5), utc("2026-04-04T11:00:00Z")); // midnight NZDT
    EXPECT_EQ(nz::startOfDay(2026_y / 4 / 6), utc("2026-04-05T12:00:00Z")); // midnight NZST
    EXPECT_EQ(nz::startOfDay(2026_y / 4 / 6) - nz::startOfDay(2026_y / 4 / 5), hours(25));
}

TEST(NzTime, TheMissingHourInSeptemberNeverShows) {
    // 2026-09-27: 01:59:59 NZST is followed by 03:00:00 NZDT.
    EXPECT_EQ(nz::formatWithOffset(utc("2026-09-26T13:59:59Z")), "2026-09-27T01:59:59+12:00");
    EXPECT_EQ(nz::formatWithOffset(utc("2026-09-26T14:00:00Z")), "2026-09-27T03:00:00+13:00");
    // No instant of that day reads 02:xx.
    for (auto at = utc("2026-09-26T12:00:00Z"); at < utc("2026-09-27T11:00:00Z"); at += minutes(1))
        EXPECT_NE(nz::formatWithOffset(at).substr(11, 2), "02") << nz::formatWithOffset(at);
    // A 23-hour day.
    EXPECT_EQ(nz::startOfDay(2026_y / 9 / 27), utc("2026-09-26T12:00:00Z")); // midnight NZST
    EXPECT_EQ(nz::startOfDay(2026_y / 9 / 28), utc("2026-09-27T11:00:00Z")); // midnight NZDT
    EXPECT_EQ(nz::startOfDay(2026_y / 9 / 28) - nz::startOfDay(2026_y / 9 / 27), hours(23));
}

TEST(NzTime, CalendarDateIsTheNewZealandOne) {
    // 11:00Z is still the 25th in London but already the 26th in Auckland (NZDT).
    EXPECT_EQ(nz::dateOf(utc("2026-11-25T10:59:59Z")), 2026_y / 11 / 25);
    EXPECT_EQ(nz::dateOf(utc("2026-11-25T11:00:00Z")), 2026_y / 11 / 26);
    // In winter (NZST) the day turns at 12:00Z.
    EXPECT_EQ(nz::dateOf(utc("2026-07-01T11:59:59Z")), 2026_y / 7 / 1);
    EXPECT_EQ(nz::dateOf(utc("2026-07-01T12:00:00Z")), 2026_y / 7 / 2);
}

TEST(NzTime, MonthsStartAtTheirNewZealandMidnight) {
    EXPECT_EQ(nz::startOfMonth(2026_y / 4), utc("2026-03-31T11:00:00Z"));  // NZDT
    EXPECT_EQ(nz::startOfMonth(2026_y / 5), utc("2026-04-30T12:00:00Z"));  // NZST
    EXPECT_EQ(nz::startOfMonth(2026_y / 10), utc("2026-09-30T11:00:00Z")); // NZDT again
    EXPECT_EQ(nz::startOfMonth(2027_y / 1), utc("2026-12-31T11:00:00Z"));
    EXPECT_EQ(nz::formatWithOffset(nz::startOfMonth(2026_y / 5)), "2026-05-01T00:00:00+12:00");
}

TEST(NzTime, TheLastThirtyDaysStartAtANewZealandMidnight) {
    // 2026-11-25T08:00Z is 21:00 on the 25th in Auckland: the window starts 2026-10-27 00:00 NZDT.
    EXPECT_EQ(nz::dayStart(utc("2026-11-25T08:00:00Z"), 29), utc("2026-10-26T11:00:00Z"));
    // Across the change to daylight time: 2026-10-21 01:30 NZDT back to 2026-09-22 00:00 NZST.
    EXPECT_EQ(nz::dayStart(utc("2026-10-20T12:30:00Z"), 29), utc("2026-09-21T12:00:00Z"));
    // Today's midnight.
    EXPECT_EQ(nz::dayStart(utc("2026-11-25T08:00:00Z"), 0), utc("2026-11-24T11:00:00Z"));
    // From the repeated hour back one day: the 4th began in NZDT.
    EXPECT_EQ(nz::dayStart(utc("2026-04-04T14:30:00Z"), 1), utc("2026-04-03T11:00:00Z"));
}

TEST(NzTime, InstantsFromTheClockDropTheirFraction) {
    const auto at = std::chrono::system_clock::time_point(utc("2026-04-04T14:30:00Z")) + std::chrono::milliseconds(999);
    EXPECT_EQ(nz::formatWithOffset(nz::instantOf(at)), "2026-04-05T02:30:00+12:00");
}

} // namespace

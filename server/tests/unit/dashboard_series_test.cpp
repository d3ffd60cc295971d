// The dashboard charts' New Zealand buckets (backoffice/series.h): complete, oldest first, each
// starting at its New Zealand midnight, across both daylight-saving changes (first Sunday in April:
// a 25-hour day; last Sunday in September: a 23-hour day).
#include "backoffice/series.h"
#include "utc_text.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

namespace nz = storefront::nz;
using storefront::backoffice::bucketOf;
using storefront::backoffice::lastDays;
using storefront::backoffice::lastMonths;
using std::chrono::hours;
using std::chrono::seconds;

using testing_support::utc;

TEST(DashboardSeries, ThirtyDaysEndWithTodayInNewZealand) {
    // 11:30Z on the 25th of November is already the 26th in Auckland (NZDT, +13).
    const auto days = lastDays(utc("2026-11-25T11:30:00Z"), 30);
    ASSERT_EQ(days.labels.size(), 30u);
    ASSERT_EQ(days.bounds.size(), 31u);
    EXPECT_EQ(days.labels.front(), "2026-10-28");
    EXPECT_EQ(days.labels.back(), "2026-11-26");
    EXPECT_EQ(days.bounds.front(), utc("2026-10-27T11:00:00Z"));
    EXPECT_EQ(days.bounds[29], utc("2026-11-25T11:00:00Z"));
    EXPECT_EQ(days.bounds.back(), utc("2026-11-26T11:00:00Z")); // tomorrow's midnight closes today
}

TEST(DashboardSeries, TheDaylightSavingDaysAreTwentyFiveAndTwentyThreeHoursLong) {
    // April: 2026-04-05 runs from midnight NZDT to midnight NZST.
    const auto april = lastDays(utc("2026-04-06T00:00:00Z"), 3); // the 6th, 12:00 NZST
    ASSERT_EQ(april.labels, (std::vector<std::string>{"2026-04-04", "2026-04-05", "2026-04-06"}));
    EXPECT_EQ(april.bounds[1], utc("2026-04-04T11:00:00Z"));
    EXPECT_EQ(april.bounds[2], utc("2026-04-05T12:00:00Z"));
    EXPECT_EQ(april.bounds[2] - april.bounds[1], hours(25));
    // Both 02:30s of the 5th (NZDT, then NZST) are in its bucket; the second before midnight too.
    EXPECT_EQ(bucketOf(april, utc("2026-04-04T13:30:00Z")), 1);
    EXPECT_EQ(bucketOf(april, utc("2026-04-04T14:30:00Z")), 1);
    EXPECT_EQ(bucketOf(april, utc("2026-04-05T11:59:59Z")), 1); // 23:59:59 NZST: still the 5th
    EXPECT_EQ(bucketOf(april, utc("2026-04-05T12:00:00Z")), 2); // midnight: the 6th
    EXPECT_EQ(bucketOf(april, utc("2026-04-04T10:59:59Z")), 0); // 23:59:59 NZDT on the 4th
    // September: 2026-09-27 skips 02:00-03:00.
    const auto september = lastDays(utc("2026-09-28T00:00:00Z"), 2);
    ASSERT_EQ(september.labels, (std::vector<std::string>{"2026-09-27", "2026-09-28"}));
    EXPECT_EQ(september.bounds[0], utc("2026-09-26T12:00:00Z"));
    EXPECT_EQ(september.bounds[1] - september.bounds[0], hours(23));
    EXPECT_EQ(bucketOf(september, utc("2026-09-27T10:59:59Z")), 0);
    EXPECT_EQ(bucketOf(september, utc("2026-09-27T11:00:00Z")), 1);
}

TEST(DashboardSeries, TwelveMonthsEndWithThisMonthAndCrossTheYear) {
    // 11:00Z on 2026-12-31 is the first of January 2027 in Auckland.
    const auto months = lastMonths(utc("2026-12-31T11:00:00Z"), 12);
    ASSERT_EQ(months.labels.size(), 12u);
    EXPECT_EQ(months.labels.front(), "2026-02");
    EXPECT_EQ(months.labels.back(), "2027-01");
    EXPECT_EQ(months.bounds.front(), utc("2026-01-31T11:00:00Z")); // 1 February, NZDT
    EXPECT_EQ(months.bounds[3], utc("2026-04-30T12:00:00Z"));     // 1 May, NZST
    EXPECT_EQ(months.bounds[8], utc("2026-09-30T11:00:00Z"));     // 1 October, NZDT again
    EXPECT_EQ(months.bounds.back(), utc("2027-01-31T11:00:00Z"));
    // The last second of April NZST is April's; the first of May is May's.
    EXPECT_EQ(months.labels[2], "2026-04");
    EXPECT_EQ(bucketOf(months, utc("2026-04-30T11:59:59Z")), 2);
    EXPECT_EQ(bucketOf(months, utc("2026-04-30T12:00:00Z")), 3);
}

TEST(DashboardSeries, AnInstantOutsideTheBucketsIsInNone) {
    const auto days = lastDays(utc("2026-07-15T00:00:00Z"), 30);
    EXPECT_EQ(bucketOf(days, days.bounds.front() - seconds(1)), -1);
    EXPECT_EQ(bucketOf(days, days.bounds.front()), 0);
    EXPECT_EQ(bucketOf(days, days.bounds.back() - seconds(1)), 29);
    EXPECT_EQ(bucketOf(days, days.bounds.back()), -1);
}

} // namespace

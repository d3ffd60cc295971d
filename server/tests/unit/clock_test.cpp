// The server's one clock (common/clock.h): the stored timestamp form, and a shifted clock that
// reads real time until moved.
#include "common/clock.h"

#include "db/database.h"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono;
using storefront::Clock;

class FixedClock final : public Clock {
public:
    explicit FixedClock(TimePoint at) : at_(at) {}
    TimePoint now() const override { return at_; }

private:
    TimePoint at_;
};

TEST(Clock, ReadingsAreInTheStoredTimestampForm) {
    // 2026-04-04T14:00:00.250Z
    const FixedClock clock(Clock::TimePoint(seconds(1775311200) + milliseconds(250) + microseconds(999)));
    EXPECT_EQ(clock.nowTimestamp(), "2026-04-04T14:00:00.250Z");
    EXPECT_EQ(clock.timestampAfter(-86400), "2026-04-03T14:00:00.250Z");
    EXPECT_EQ(clock.timestampAfter(90), "2026-04-04T14:01:30.250Z");
    EXPECT_EQ(clock.epochSeconds(), 1775311200);
    EXPECT_EQ(clock.epochMillis(), 1775311200250);
    // The database reads it back as the same instant.
    EXPECT_EQ(storefront::db::normalizeTimestamp(clock.nowTimestamp()), clock.nowTimestamp());
    EXPECT_EQ(storefront::db::epochFromTimestamp(clock.nowTimestamp()), 1775311200);
}

TEST(Clock, BeforeTheEpochAndAtMidnight) {
    EXPECT_EQ(storefront::formatTimestamp(Clock::TimePoint(seconds(-1))), "1969-12-31T23:59:59.000Z");
    EXPECT_EQ(storefront::formatTimestamp(Clock::TimePoint(seconds(1767225600))), "2026-01-01T00:00:00.000Z");
}

TEST(Clock, TheSystemClockReadsTheMachinesTime) {
    const auto before = system_clock::now();
    const auto read = storefront::systemClock().now();
    EXPECT_GE(read, before);
    EXPECT_LE(read - before, seconds(5));
}

TEST(ShiftedClock, ReadsRealTimeUntilMovedAndMovesBack) {
    storefront::ShiftedClock clock;
    EXPECT_LE(std::chrono::abs(clock.now() - system_clock::now()), seconds(1));
    clock.advance(hours(24 * 8));
    EXPECT_EQ(clock.offset(), hours(24 * 8));
    const auto moved = clock.now() - system_clock::now();
    EXPECT_GT(moved, hours(24 * 8) - seconds(1));
    EXPECT_LT(moved, hours(24 * 8) + seconds(1));
    EXPECT_GE(clock.epochSeconds() - storefront::systemClock().epochSeconds(), 8 * 86400 - 1);
    clock.advance(-hours(24));
    EXPECT_EQ(clock.offset(), hours(24 * 7));
    clock.reset();
    EXPECT_EQ(clock.offset(), milliseconds(0));
}

} // namespace

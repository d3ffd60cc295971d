#pragma once
// The server's one clock. Every rule that depends on "now" (expiry, inactivity, revenue windows,
// rate limits, the time stamped on a row) reads it through a `Clock`, handed out by the module
// wiring in app/storefront.cpp (and carried by db::Database, so repositories reach it as
// `db.clock()` / `tx.clock()`). Production runs on systemClock(); tests run on a ShiftedClock and
// move time forward instead of sleeping or back-dating rows.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace storefront {

class Clock {
public:
    using TimePoint = std::chrono::system_clock::time_point;

    virtual ~Clock() = default;
    virtual TimePoint now() const = 0;

    // Unix seconds / milliseconds now.
    std::int64_t epochSeconds() const;
    std::int64_t epochMillis() const;
    // Now, and `seconds` from now (negative for the past), in the stored timestamp form
    // ("2026-11-23T09:26:51.123Z"; db/database.h).
    std::string nowTimestamp() const;
    std::string timestampAfter(std::int64_t seconds) const;
};

// An instant in the stored timestamp form, to the millisecond, UTC.
std::string formatTimestamp(Clock::TimePoint at);

// The machine's clock.
const Clock& systemClock();

// The machine's clock moved by an offset that starts at zero: reads real time until a test moves
// it. Thread-safe; the server's request threads and jobs read it while a test advances it.
class ShiftedClock final : public Clock {
public:
    TimePoint now() const override;
    void advance(std::chrono::milliseconds by) { offsetMillis_.fetch_add(by.count()); }
    void reset() { offsetMillis_.store(0); }
    std::chrono::milliseconds offset() const { return std::chrono::milliseconds(offsetMillis_.load()); }

private:
    std::atomic<std::int64_t> offsetMillis_{0};
};

} // namespace storefront

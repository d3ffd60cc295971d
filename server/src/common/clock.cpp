#include "common/clock.h"

#include <date/date.h>

namespace storefront {

namespace {

class SystemClock final : public Clock {
public:
    TimePoint now() const override { return std::chrono::system_clock::now(); }
};

} // namespace

std::int64_t Clock::epochSeconds() const {
    return std::chrono::duration_cast<std::chrono::seconds>(now().time_since_epoch()).count();
}

std::int64_t Clock::epochMillis() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(now().time_since_epoch()).count();
}

std::string Clock::nowTimestamp() const { return formatTimestamp(now()); }

std::string Clock::timestampAfter(std::int64_t seconds) const {
    return formatTimestamp(now() + std::chrono::seconds(seconds));
}

std::string formatTimestamp(Clock::TimePoint at) {
    return date::format("%Y-%m-%dT%H:%M:%SZ", std::chrono::floor<std::chrono::milliseconds>(at));
}

const Clock& systemClock() {
    static const SystemClock clock;
    return clock;
}

Clock::TimePoint ShiftedClock::now() const {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(offsetMillis_.load());
}

} // namespace storefront

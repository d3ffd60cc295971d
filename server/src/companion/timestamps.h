#pragma once
// The companion area's time arithmetic on clock readings (common/clock.h: Clock::epochMillis()):
// stored timestamps to milliseconds and back, calendar months for a redemption's pro period.
#include <cstdint>
#include <string>

namespace storefront::companion {

// The stored timestamp form ("2026-11-23T09:26:51.000Z") of a clock reading, and back.
std::string timestampAt(std::int64_t millis);
std::int64_t millisOf(const std::string& timestamp);

// `millis` plus whole calendar months (the day clamped to the month's last day), as a timestamp.
std::string addMonths(std::int64_t millis, int months);

inline constexpr std::int64_t kDayMillis = 86'400'000;

} // namespace storefront::companion

#pragma once
// The companion area's injected clock: the redemption's expiry and the inactivity job read time
// through it, so tests move time instead of sleeping.
#include <cstdint>
#include <functional>
#include <string>

namespace storefront::companion {

// Milliseconds since the Unix epoch.
using Clock = std::function<std::int64_t()>;

std::int64_t systemMillis();
inline Clock systemClock() { return &systemMillis; }

// The stored timestamp form ("2026-11-23T09:26:51.000Z") of a clock reading, and back.
std::string timestampAt(std::int64_t millis);
std::int64_t millisOf(const std::string& timestamp);

// `millis` plus whole calendar months (the day clamped to the month's last day), as a timestamp.
std::string addMonths(std::int64_t millis, int months);

inline constexpr std::int64_t kDayMillis = 86'400'000;

} // namespace storefront::companion

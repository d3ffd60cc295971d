#include "companion/timestamps.h"

#include "db/database.h"

#include <Poco/DateTime.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/Timestamp.h>

#include <chrono>

namespace storefront::companion {

std::string timestampAt(std::int64_t millis) {
    return Poco::DateTimeFormatter::format(Poco::Timestamp(static_cast<Poco::Timestamp::TimeVal>(millis) * 1000),
                                           "%Y-%m-%dT%H:%M:%S.%iZ");
}

std::int64_t millisOf(const std::string& timestamp) {
    const auto normalized = db::normalizeTimestamp(timestamp);
    std::int64_t millis = db::epochFromTimestamp(normalized) * 1000;
    // "....SS.mmmZ": epochFromTimestamp keeps whole seconds only.
    auto dot = normalized.rfind('.');
    if (dot != std::string::npos && normalized.size() >= dot + 4) millis += std::stoi(normalized.substr(dot + 1, 3));
    return millis;
}

std::string addMonths(std::int64_t millis, int months) {
    Poco::DateTime t(Poco::Timestamp(static_cast<Poco::Timestamp::TimeVal>(millis) * 1000));
    int total = t.year() * 12 + (t.month() - 1) + months;
    int year = total / 12, month = total % 12 + 1;
    int day = std::min(t.day(), Poco::DateTime::daysOfMonth(year, month));
    Poco::DateTime shifted(year, month, day, t.hour(), t.minute(), t.second(), t.millisecond());
    return Poco::DateTimeFormatter::format(shifted, "%Y-%m-%dT%H:%M:%S.%iZ");
}

} // namespace storefront::companion

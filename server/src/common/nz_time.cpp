#include "common/nz_time.h"

#include <date/tz.h>

namespace storefront::nz {

namespace {

// Looked up once: the zone stays valid for the life of the process.
const date::time_zone& auckland() {
    static const date::time_zone* zone = date::locate_zone("Pacific/Auckland");
    return *zone;
}

} // namespace

date::year_month_day dateOf(Instant at) {
    const auto local = auckland().to_local(at);
    return date::year_month_day{date::floor<date::days>(local)};
}

Instant startOfDay(date::year_month_day day) {
    // choose::earliest: a repeated local time gives its first instant, a skipped one the instant
    // the clocks jumped.
    return date::floor<std::chrono::seconds>(auckland().to_sys(date::local_days{day}, date::choose::earliest));
}

Instant startOfMonth(date::year_month month) { return startOfDay(month / date::day{1}); }

std::chrono::seconds offsetAt(Instant at) { return auckland().get_info(at).offset; }

std::string formatWithOffset(Instant at) {
    return date::format("%FT%T%Ez", date::make_zoned(&auckland(), at));
}

Instant dayStart(Instant at, int daysBack) {
    return startOfDay(date::year_month_day{date::sys_days{dateOf(at)} - date::days{daysBack}});
}

std::optional<date::year_month_day> parseDate(const std::string& text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
    const date::year_month_day day{date::year(std::stoi(text.substr(0, 4))), date::month(std::stoi(text.substr(5, 2))),
                                   date::day(std::stoi(text.substr(8, 2)))};
    if (!day.ok() || day.year() < date::year(2000) || day.year() > date::year(2200)) return std::nullopt;
    return day;
}

std::string longDate(Instant at) {
    static const char* const months[12] = {"January", "February", "March",     "April",   "May",      "June",
                                           "July",    "August",   "September", "October", "November", "December"};
    const auto day = dateOf(at);
    return std::to_string(static_cast<unsigned>(day.day())) + " " + months[static_cast<unsigned>(day.month()) - 1] + " " +
           std::to_string(static_cast<int>(day.year()));
}

} // namespace storefront::nz

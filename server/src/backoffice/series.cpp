#include "backoffice/series.h"

#include <algorithm>
#include <cstdio>

namespace storefront::backoffice {

namespace {

std::string twoDigits(unsigned value) {
    char text[8];
    std::snprintf(text, sizeof text, "%02u", value);
    return text;
}

std::string monthLabel(date::year_month month) {
    return std::to_string(static_cast<int>(month.year())) + "-" + twoDigits(static_cast<unsigned>(month.month()));
}

} // namespace

Buckets lastDays(nz::Instant now, int count) {
    Buckets out;
    const date::sys_days today{nz::dateOf(now)};
    for (int back = count - 1; back >= -1; --back) {
        const date::year_month_day day{today - date::days{back}};
        out.bounds.push_back(nz::startOfDay(day));
        if (back >= 0)
            out.labels.push_back(monthLabel(day.year() / day.month()) + "-" + twoDigits(static_cast<unsigned>(day.day())));
    }
    return out;
}

Buckets lastMonths(nz::Instant now, int count) {
    Buckets out;
    const auto today = nz::dateOf(now);
    const date::year_month thisMonth = today.year() / today.month();
    for (int back = count - 1; back >= -1; --back) {
        const auto month = thisMonth - date::months{back};
        out.bounds.push_back(nz::startOfMonth(month));
        if (back >= 0) out.labels.push_back(monthLabel(month));
    }
    return out;
}

int bucketOf(const Buckets& buckets, nz::Instant at) {
    if (buckets.bounds.empty() || at < buckets.bounds.front() || at >= buckets.bounds.back()) return -1;
    const auto after = std::upper_bound(buckets.bounds.begin(), buckets.bounds.end(), at);
    return static_cast<int>(after - buckets.bounds.begin()) - 1;
}

} // namespace storefront::backoffice

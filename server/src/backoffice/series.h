#pragma once
// The dashboard charts' time buckets (GET /api/v1/admin/stats/series): the last N New Zealand
// calendar days or months up to and including the one that contains "now", each with the UTC
// instant it began, so a day is 23, 24 or 25 hours long as daylight saving makes it. The SQL sums
// rows into these buckets (stats_repository.cpp); nothing here knows a table.
#include "common/nz_time.h"

#include <string>
#include <vector>

namespace storefront::backoffice {

struct Buckets {
    std::vector<std::string> labels; // "2026-11-27" (days) or "2026-11" (months), oldest first
    std::vector<nz::Instant> bounds; // labels.size() + 1 instants: bucket i is [bounds[i], bounds[i + 1])
};

// The last `count` New Zealand days, today last.
Buckets lastDays(nz::Instant now, int count);
// The last `count` New Zealand months, this month last.
Buckets lastMonths(nz::Instant now, int count);

// The bucket an instant falls in, or -1 outside them all.
int bucketOf(const Buckets& buckets, nz::Instant at);

} // namespace storefront::backoffice

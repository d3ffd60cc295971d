#include "db/rate_limiter.h"

#include <Poco/Timestamp.h>

using namespace Poco::Data::Keywords;

namespace storefront::db {

namespace {
constexpr const char* kHit =
    "INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (?, ?, 1) "
    "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1 RETURNING hits";
constexpr const char* kPrune = "DELETE FROM rate_limit_counters WHERE window_start < ?";
} // namespace

RateLimiter::Decision RateLimiter::hit(const std::string& bucket, int limit, int windowSeconds) {
    return hitAt(bucket, limit, windowSeconds, Poco::Timestamp().epochTime());
}

RateLimiter::Decision RateLimiter::hitAt(const std::string& bucket, int limit, int windowSeconds,
                                         std::int64_t nowEpochSeconds) {
    Poco::Int64 windowStart = nowEpochSeconds - nowEpochSeconds % windowSeconds;
    Poco::Int64 hits = 0;
    std::string key = bucket;
    db_.write([&](Tx& tx) {
        auto& s = tx.session(); s << db_.sql(kHit), use(key), use(windowStart), into(hits), now; });
    Decision d;
    if (hits > limit) {
        d.allowed = false;
        d.retryAfterSeconds = static_cast<int>(windowStart + windowSeconds - nowEpochSeconds);
        if (d.retryAfterSeconds < 1) d.retryAfterSeconds = 1;
    }
    return d;
}

void RateLimiter::prune(std::int64_t olderThanEpochSeconds) {
    Poco::Int64 cutoff = olderThanEpochSeconds;
    db_.write([&](Tx& tx) {
        auto& s = tx.session(); s << db_.sql(kPrune), use(cutoff), now; });
}

} // namespace storefront::db

#include "db/rate_limiter.h"

#include <Poco/Timestamp.h>

namespace storefront::db {

namespace {
constexpr const char* kHit =
    "INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (?, ?, 1) "
    "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1 RETURNING hits";
constexpr const char* kPrune = "DELETE FROM rate_limit_counters WHERE window_start < ?";
} // namespace

RateLimiter::Decision RateLimiter::hit(const std::string& bucket, int limit, int windowSeconds) {
    return hitAt(bucket, limit, windowSeconds, db_.clock().epochSeconds());
}

RateLimiter::Decision RateLimiter::hitAt(const std::string& bucket, int limit, int windowSeconds,
                                         std::int64_t nowEpochSeconds) {
    const std::int64_t windowStart = nowEpochSeconds - nowEpochSeconds % windowSeconds;
    std::int64_t hits = 0;
    db_.write([&](Tx& tx) { hits = tx.query(kHit).bind(bucket, windowStart).count(); });
    Decision d;
    if (hits > limit) {
        d.allowed = false;
        d.retryAfterSeconds = static_cast<int>(windowStart + windowSeconds - nowEpochSeconds);
        if (d.retryAfterSeconds < 1) d.retryAfterSeconds = 1;
    }
    return d;
}

void RateLimiter::prune(std::int64_t olderThanEpochSeconds) {
    db_.write([&](Tx& tx) { tx.query(kPrune).bind(olderThanEpochSeconds).run(); });
}

} // namespace storefront::db

#pragma once
// Fixed-window counters kept in the database, so every server behind a load balancer shares them.
#include "db/database.h"

#include <cstdint>
#include <string>

namespace storefront::db {

class RateLimiter {
public:
    explicit RateLimiter(Database& db) : db_(db) {}

    struct Decision {
        bool allowed = true;
        int retryAfterSeconds = 0;
    };

    // Counts one hit on `bucket`; refuses once more than `limit` hits fall in the current window.
    Decision hit(const std::string& bucket, int limit, int windowSeconds);
    Decision hitAt(const std::string& bucket, int limit, int windowSeconds, std::int64_t nowEpochSeconds);

    // Deletes windows that ended before `olderThanEpochSeconds`.
    void prune(std::int64_t olderThanEpochSeconds);

private:
    Database& db_;
};

} // namespace storefront::db

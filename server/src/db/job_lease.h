#pragma once
// Run-once guards for background jobs on several servers (DESIGN.md, "Scale-out"): a lease row in
// job_leases for servers sharing a SQLite file, and a PostgreSQL session-level advisory lock.
#include "db/database.h"

#include <cstdint>
#include <string>

namespace storefront::db {

class JobLease {
public:
    explicit JobLease(Database& db) : db_(db) {}

    // True when `holder` now holds `name` until `expiresAt`: the row was free, expired before
    // `now`, or already `holder`'s.
    bool take(const std::string& name, const std::string& holder, const std::string& expiresAt, const std::string& now);
    void release(const std::string& name, const std::string& holder);

    // PostgreSQL session-level advisory lock on `session` (the same session must unlock).
    static bool tryAdvisoryLock(Poco::Data::Session& session, std::int64_t key);
    static void advisoryUnlock(Poco::Data::Session& session, std::int64_t key);

private:
    Database& db_;
};

} // namespace storefront::db

#include "db/job_lease.h"

#include "db/query.h"

namespace storefront::db {

namespace {

constexpr const char* kTakeLease =
    "INSERT INTO job_leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
    "SET holder = excluded.holder, expires_at = excluded.expires_at "
    "WHERE job_leases.expires_at < ? OR job_leases.holder = excluded.holder";
constexpr const char* kReleaseLease = "DELETE FROM job_leases WHERE name = ? AND holder = ?";
constexpr const char* kAdvisoryLock = "SELECT 1 AS locked WHERE pg_try_advisory_lock(CAST(? AS BIGINT))";
constexpr const char* kAdvisoryUnlock = "SELECT pg_advisory_unlock(CAST(? AS BIGINT))";

} // namespace

bool JobLease::take(const std::string& name, const std::string& holder, const std::string& expiresAt, const std::string& now) {
    bool taken = false;
    db_.write([&](Tx& tx) { taken = tx.query(kTakeLease).bind(name, holder, expiresAt, now).changed() == 1; });
    return taken;
}

void JobLease::release(const std::string& name, const std::string& holder) {
    db_.write([&](Tx& tx) { tx.query(kReleaseLease).bind(name, holder).run(); });
}

bool JobLease::tryAdvisoryLock(Poco::Data::Session& session, std::int64_t key) {
    return query(session, kAdvisoryLock).bind(key).exists();
}

void JobLease::advisoryUnlock(Poco::Data::Session& session, std::int64_t key) {
    (void)query(session, kAdvisoryUnlock).bind(key).exists();
}

} // namespace storefront::db

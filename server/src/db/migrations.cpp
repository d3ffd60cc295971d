#include "db/migrations.h"

#include <Poco/Data/Session.h>
#include <Poco/String.h>

#include <sodium.h>

#include <map>
#include <set>
#include <stdexcept>

using namespace Poco::Data::Keywords;

namespace storefront::db {

namespace {

// Arbitrary, fixed key for pg_advisory_lock: "storefront migrations".
constexpr long long kMigrationLockKey = 7354101;

std::set<std::string> appliedVersions(Poco::Data::Session& s) {
    std::vector<std::string> versions;
    s << "SELECT version FROM schema_migrations", into(versions), now;
    return {versions.begin(), versions.end()};
}

// Whether schema_migrations has its checksum column yet (added by 0013_migration_checksums.sql).
bool hasChecksumColumn(Poco::Data::Session& s, Dialect dialect) {
    int count = 0;
    if (dialect == Dialect::PostgreSQL)
        s << "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() "
             "AND table_name = 'schema_migrations' AND column_name = 'checksum'",
            into(count), now;
    else
        s << "SELECT COUNT(*) FROM pragma_table_info('schema_migrations') WHERE name = 'checksum'", into(count), now;
    return count > 0;
}

// Stops start-up when a migration this database has applied is not the file this build carries.
void verifyChecksums(Poco::Data::Session& s, const std::vector<EmbeddedSql>& migrations) {
    std::vector<std::string> versions, checksums;
    s << "SELECT version, checksum FROM schema_migrations WHERE checksum IS NOT NULL", into(versions), into(checksums), now;
    std::map<std::string, std::string> recorded;
    for (std::size_t i = 0; i < versions.size(); ++i) recorded[versions[i]] = checksums[i];
    for (const auto& m : migrations) {
        auto it = recorded.find(m.name);
        if (it == recorded.end()) continue;
        const auto current = migrationChecksum(m.text);
        if (it->second != current)
            throw MigrationChanged("migration " + m.name +
                                   " was changed after this database applied it (recorded " + it->second +
                                   ", the file is now " + current +
                                   "). An applied migration must never change: put the file back as it was released "
                                   "and make the change in a new migration (docs/database.md, \"Migrations\").");
    }
}

// Records the checksum of every applied migration that has none yet: rows applied before the
// column existed, or by a release that does not know it.
void fillChecksums(Database& db, Poco::Data::Session& s, const std::vector<EmbeddedSql>& migrations) {
    std::vector<std::string> missing;
    s << "SELECT version FROM schema_migrations WHERE checksum IS NULL", into(missing), now;
    const std::set<std::string> pending(missing.begin(), missing.end());
    for (const auto& m : migrations) {
        if (!pending.contains(m.name) || !migrationAppliesTo(m.name, db.dialect())) continue;
        std::string checksum = migrationChecksum(m.text), name = m.name;
        s << db.sql("UPDATE schema_migrations SET checksum = ? WHERE version = ? AND checksum IS NULL"), use(checksum),
            use(name), now;
    }
}

} // namespace

std::string migrationChecksum(std::string_view sqlText) {
    // Line endings do not count: a checkout with CRLF is the same migration.
    std::string text;
    text.reserve(sqlText.size());
    for (char c : sqlText)
        if (c != '\r') text += c;
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    static constexpr char hex[] = "0123456789abcdef";
    std::string out = "sha256:";
    for (unsigned char b : digest) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

bool migrationAppliesTo(std::string_view fileName, Dialect dialect) {
    if (fileName.ends_with(".postgres.sql")) return dialect == Dialect::PostgreSQL;
    if (fileName.ends_with(".sqlite.sql")) return dialect == Dialect::SQLite;
    return true;
}

std::vector<std::string> splitStatements(std::string_view sqlText) {
    std::vector<std::string> out;
    std::string current;
    bool inTrigger = false;
    bool inDollarQuote = false; // inside a PostgreSQL $$ ... $$ body (a function's)
    std::size_t pos = 0;
    while (pos <= sqlText.size()) {
        auto eol = sqlText.find('\n', pos);
        if (eol == std::string_view::npos) eol = sqlText.size();
        std::string line = Poco::trim(std::string(sqlText.substr(pos, eol - pos)));
        pos = eol + 1;
        if (line.empty() || line.starts_with("--")) continue;
        if (current.empty()) inTrigger = Poco::icompare(line.substr(0, 14), "CREATE TRIGGER") == 0;
        if (!current.empty()) current += '\n';
        current += line;
        const auto upper = Poco::toUpper(line);
        for (auto at = line.find("$$"); at != std::string::npos; at = line.find("$$", at + 2)) inDollarQuote = !inDollarQuote;
        // A trigger with a BEGIN ... END body (SQLite) ends at its END; one that calls a function
        // (PostgreSQL: EXECUTE FUNCTION f();) at its semicolon.
        const bool triggerBody = inTrigger && Poco::toUpper(current).find("BEGIN") != std::string::npos;
        const bool ends = !inDollarQuote && line.ends_with(';') &&
                          (!triggerBody || upper == "END;" || upper.ends_with(" END;"));
        if (ends) {
            current.pop_back();
            if (!Poco::trim(current).empty()) out.push_back(Poco::trim(current));
            current.clear();
        }
    }
    if (!Poco::trim(current).empty()) out.push_back(Poco::trim(current));
    return out;
}

std::vector<std::string> migrate(Database& db, const std::vector<EmbeddedSql>& migrations) {
    std::vector<std::string> applied;
    auto s = db.session();
    s << "CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)", now;
    const bool pg = db.dialect() == Dialect::PostgreSQL;
    // Another server's migrations may take longer than the sessions' lock_timeout: wait for them.
    if (pg) s << "SET lock_timeout = 0", now;
    if (pg) s << "SELECT pg_advisory_lock(" + std::to_string(kMigrationLockKey) + ")", now;
    try {
        if (hasChecksumColumn(s, db.dialect())) verifyChecksums(s, migrations);
        for (const auto& m : migrations) {
            if (!migrationAppliesTo(m.name, db.dialect())) continue;
            if (appliedVersions(s).contains(m.name)) continue;
            s << (pg ? "BEGIN" : "BEGIN IMMEDIATE"), now;
            try {
                // Another server may have applied it while we waited for the lock.
                if (!appliedVersions(s).contains(m.name)) {
                    for (const auto& statement : splitStatements(m.text)) s << statement, now;
                    std::string name = m.name, at = db.clock().nowTimestamp();
                    s << db.sql("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"), use(name),
                        use(at), now;
                    applied.push_back(m.name);
                }
                s << "COMMIT", now;
            } catch (...) {
                s << "ROLLBACK", now;
                throw;
            }
        }
        if (hasChecksumColumn(s, db.dialect())) {
            s << (pg ? "BEGIN" : "BEGIN IMMEDIATE"), now;
            try {
                fillChecksums(db, s, migrations);
                s << "COMMIT", now;
            } catch (...) {
                s << "ROLLBACK", now;
                throw;
            }
        }
    } catch (...) {
        if (pg) s << "SELECT pg_advisory_unlock(" + std::to_string(kMigrationLockKey) + ")", now;
        if (pg) s << "RESET lock_timeout", now;
        throw;
    }
    if (pg) s << "SELECT pg_advisory_unlock(" + std::to_string(kMigrationLockKey) + ")", now;
    if (pg) s << "RESET lock_timeout", now;
    return applied;
}

bool seedIfEmpty(Database& db, const std::vector<EmbeddedSql>& seeds) {
    // The seed is offered once in a database's life: it is recorded in schema_migrations, so a
    // catalogue an admin later empties stays empty across restarts.
    bool seeded = false;
    db.write([&](Tx& tx) {
        auto& s = tx.session();
        if (db.dialect() == Dialect::PostgreSQL) s << "LOCK TABLE schema_migrations IN EXCLUSIVE MODE", now;
        const auto applied = appliedVersions(s);
        int products = 0;
        s << "SELECT COUNT(*) FROM products", into(products), now;
        for (const auto& file : seeds) {
            std::string version = "seed/" + file.name, at = db.clock().nowTimestamp();
            if (applied.contains(version)) continue;
            if (products == 0) {
                for (const auto& statement : splitStatements(file.text)) s << statement, now;
                seeded = true;
            }
            s << db.sql("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"), use(version), use(at), now;
        }
    });
    return seeded;
}

bool runOnce(Database& db, const std::string& version, const std::function<void()>& write) {
    // Claim the name first in its own transaction (the primary key makes a second server's claim
    // fail), then write; a failed write gives the claim back so the next start tries again.
    bool claimed = false;
    db.write([&](Tx& tx) {
        auto& s = tx.session();
        if (db.dialect() == Dialect::PostgreSQL) s << "LOCK TABLE schema_migrations IN EXCLUSIVE MODE", now;
        if (appliedVersions(s).contains(version)) return;
        std::string name = version, at = db.clock().nowTimestamp();
        s << db.sql("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"), use(name), use(at), now;
        claimed = true;
    });
    if (!claimed) return false;
    try {
        write();
    } catch (...) {
        db.write([&](Tx& tx) {
            std::string name = version;
            tx.session() << db.sql("DELETE FROM schema_migrations WHERE version = ?"), use(name), now;
        });
        throw;
    }
    return true;
}

} // namespace storefront::db

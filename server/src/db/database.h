#pragma once
// One small interface over a POCO SessionPool for SQLite (embedded default) and PostgreSQL.
// SQL is written once with `?` placeholders; for PostgreSQL they become $1, $2, ... here.
#include <Poco/Data/Session.h>
#include <Poco/Data/SessionPool.h>

#include "common/clock.h"
#include "db/query.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::db {

enum class Dialect { SQLite, PostgreSQL };

struct PoolOptions {
    int minSessions = 1;
    int maxSessions = 32;
    int idleSeconds = 60;
    int busyTimeoutMs = 5000; // SQLite: how long a writer waits for the lock
    // PostgreSQL: the sessions' lock_timeout (0: none). A statement that waits longer for a lock
    // fails with SQLSTATE 55P03, raised as SessionPoolExhaustedException (503 server_busy). Not
    // applied when the URL sets `options` itself.
    int lockTimeoutMs = 0;
};

class Database;

// One write transaction: its session, queries on it, and what to do once it has committed.
class Tx {
public:
    Tx(Database& db, Poco::Data::Session& session) : db_(db), session_(session) {}
    Tx(const Tx&) = delete;
    Tx& operator=(const Tx&) = delete;

    Poco::Data::Session& session() { return session_; }
    Database& database() { return db_; }
    // The server's clock (common/clock.h): the time to stamp on rows and compare them with.
    const Clock& clock() const;
    Query query(std::string_view portableSql) { return Query(session_, portableSql); }

    // Runs `fn` after COMMIT (never after a rollback); errors it throws are logged, not raised.
    void afterCommit(std::function<void()> fn) { afterCommit_.push_back(std::move(fn)); }
    // Tells the topic's subscribers (Database::subscribe) once, after COMMIT, that the data they
    // watch changed: "catalog" (products, plans, stock), "mail" (a message was queued).
    void notify(std::string topic) { topics_.insert(std::move(topic)); }

private:
    friend class Database;
    Database& db_;
    Poco::Data::Session& session_;
    std::vector<std::function<void()>> afterCommit_;
    std::set<std::string> topics_;
};

// Topics a write transaction can notify (Tx::notify).
namespace topic {
inline constexpr const char* kCatalog = "catalog"; // products, plans or stock changed
inline constexpr const char* kMail = "mail";       // a message was queued in the outbox
} // namespace topic

class Database {
  public:
    // `target` is a SQLite file path or a postgresql:// URL.
    // `clock` is the server's clock (app/ hands it in); repositories read "now" from it.
    static std::unique_ptr<Database> open(const std::string& target, const PoolOptions& options = {},
                                          const Clock& clock = systemClock());
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    Dialect dialect() const { return dialect_; }
    const Clock& clock() const { return clock_; }
    std::string_view dialectName() const;

    // A session from the pool; it goes back when the returned object is destroyed.
    Poco::Data::Session session();

    // The statement text for this database: `?` placeholders become $n on PostgreSQL.
    std::string sql(std::string_view portableSql) const;

    // Runs `work` inside one write transaction (SQLite: BEGIN IMMEDIATE, so writers queue on the
    // lock instead of failing at commit). Commits when `work` returns, rolls back when it throws.
    // On SQLite this process's writers first queue on a mutex, in order, rather than in SQLite's
    // busy handler, which polls with sleeps of up to 100 ms and gives long, unfair waits.
    // After COMMIT, runs the transaction's afterCommit functions and each notified topic's
    // subscribers.
    void write(const std::function<void(Tx&)>& work);

    // Called after every committed write that notified `topic`. Subscribe while wiring, before
    // the server serves requests.
    void subscribe(const std::string& topic, std::function<void()> listener);

    // A cheap query proving the database answers (used by /healthz).
    void ping();

    // Stops handing out sessions and closes idle ones (graceful shutdown).
    void shutdown();

    // For /metrics: how often a request found every session taken and waited, how long those waits
    // took in all, how many ended in 503 (the wait bound passed); the pool's size now.
    struct PoolStats {
        std::uint64_t waits = 0;
        std::uint64_t waitMicros = 0;
        std::uint64_t timeouts = 0;
        int capacity = 0;
        int inUse = 0;
    };
    PoolStats poolStats() const;

  private:
    Database(Dialect dialect, std::unique_ptr<Poco::Data::SessionPool> pool, int busyTimeoutMs, const Clock& clock);
    Dialect dialect_;
    const Clock& clock_;
    std::unique_ptr<Poco::Data::SessionPool> pool_;
    int busyTimeoutMs_;
    std::atomic<std::uint64_t> poolWaits_{0};
    std::atomic<std::uint64_t> poolWaitMicros_{0};
    std::atomic<std::uint64_t> poolTimeouts_{0};
    std::timed_mutex sqliteWriter_;
    std::map<std::string, std::vector<std::function<void()>>> subscribers_;
};

inline const Clock& Tx::clock() const { return db_.clock(); }

// Converts a postgresql:// URL to a libpq key=value connection string.
// Throws std::invalid_argument for anything that is not such a URL.
std::string postgresConnectionString(std::string_view url);

// Rewrites `?` placeholders outside quoted literals as $1, $2, ...
std::string numberPlaceholders(std::string_view sql);

// Timestamps are stored as ISO-8601 UTC text on SQLite and timestamptz on PostgreSQL. Both come
// back through this: "2026-11-23 22:26:51.5+13" -> "2026-11-23T09:26:51.500Z".
std::string normalizeTimestamp(std::string_view value);

// "Now" in the stored form (ISO-8601 UTC with milliseconds, the form every write uses) comes from
// the server's clock: db.clock().nowTimestamp(), tx.clock().timestampAfter(seconds).

// Unix seconds as the stored timestamp form, and a stored timestamp back to unix seconds.
std::string timestampFromEpoch(std::int64_t epochSeconds);
std::int64_t epochFromTimestamp(const std::string& isoTimestamp);

// A new random (v4) UUID as text.
std::string newId();

} // namespace storefront::db

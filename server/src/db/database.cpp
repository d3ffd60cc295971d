#include "db/database.h"

#include "db/postgres_session.h"

#include <Poco/Data/DataException.h>
#include <Poco/Data/PostgreSQL/PostgreSQLException.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/SQLiteException.h>
#include <Poco/DateTime.h>
#include <Poco/Logger.h>
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/DateTimeParser.h>
#include <Poco/Timestamp.h>
#include <Poco/URI.h>
#include <Poco/UUIDGenerator.h>

#include <Poco/Data/SessionPool.h>

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

using namespace Poco::Data::Keywords;

namespace storefront::db {

namespace {

void registerConnectors() {
    static std::once_flag once;
    std::call_once(once, [] {
        Poco::Data::SQLite::Connector::registerConnector();
        registerPostgresConnector();
    });
}

// Applies per-connection settings to every session the pool creates.
class ConfiguredPool : public Poco::Data::SessionPool {
  public:
    ConfiguredPool(Dialect dialect, const std::string& connector, const std::string& connection,
                   const PoolOptions& options)
        : SessionPool(connector, connection, options.minSessions, options.maxSessions, options.idleSeconds),
          dialect_(dialect), busyTimeoutMs_(options.busyTimeoutMs) {}

  protected:
    void customizeSession(Poco::Data::Session& session) override {
        if (dialect_ == Dialect::SQLite) {
            session << "PRAGMA busy_timeout = " + std::to_string(busyTimeoutMs_), now;
            session << "PRAGMA foreign_keys = ON", now;
            session << "PRAGMA synchronous = NORMAL", now;
        } else {
            session << "SET TIME ZONE 'UTC'", now;
        }
    }

  private:
    Dialect dialect_;
    int busyTimeoutMs_;
};

std::string quoteConnValue(const std::string& v) {
    std::string out = "'";
    for (char c : v) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

} // namespace

std::string postgresConnectionString(std::string_view url) {
    if (!(url.starts_with("postgresql://") || url.starts_with("postgres://")))
        throw std::invalid_argument("not a postgresql:// URL");
    Poco::URI uri{std::string(url)};
    std::string out = "host=" + quoteConnValue(uri.getHost().empty() ? "127.0.0.1" : uri.getHost());
    out += " port=" + std::to_string(uri.getPort() ? uri.getPort() : 5432);
    std::string userInfo = uri.getUserInfo();
    if (!userInfo.empty()) {
        auto colon = userInfo.find(':');
        std::string user, password;
        Poco::URI::decode(userInfo.substr(0, colon), user);
        out += " user=" + quoteConnValue(user);
        if (colon != std::string::npos) {
            Poco::URI::decode(userInfo.substr(colon + 1), password);
            out += " password=" + quoteConnValue(password);
        }
    }
    std::string path = uri.getPath();
    if (path.size() > 1) out += " dbname=" + quoteConnValue(path.substr(1));
    for (const auto& [key, value] : uri.getQueryParameters()) {
        // Pass through the libpq options people put in URLs (sslmode, connect_timeout, ...).
        bool plain = !key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
        if (plain) out += " " + key + "=" + quoteConnValue(value);
    }
    return out;
}

std::string numberPlaceholders(std::string_view sql) {
    std::string out;
    out.reserve(sql.size() + 16);
    int n = 0;
    char quote = 0;
    for (char c : sql) {
        if (quote) {
            if (c == quote) quote = 0;
            out += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            out += c;
        } else if (c == '?') {
            out += '$' + std::to_string(++n);
        } else {
            out += c;
        }
    }
    return out;
}

std::string normalizeTimestamp(std::string_view value) {
    if (value.empty()) return {};
    std::string s(value);
    // PostgreSQL prints "2026-11-23 09:26:51.123+00" or "+13:00"; make it ISO-8601 first.
    if (s.size() > 10 && s[10] == ' ') s[10] = 'T';
    auto tz = s.find_first_of("+-", 19);
    if (tz != std::string::npos && s.size() - tz == 3) s += ":00";
    int tzd = 0;
    Poco::DateTime dt;
    if (!Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::ISO8601_FRAC_FORMAT, s, dt, tzd) &&
        !Poco::DateTimeParser::tryParse(s, dt, tzd))
        return std::string(value);
    dt.makeUTC(tzd);
    return Poco::DateTimeFormatter::format(dt, "%Y-%m-%dT%H:%M:%S.%iZ");
}

std::string timestampFromEpoch(std::int64_t epochSeconds) {
    return Poco::DateTimeFormatter::format(Poco::Timestamp::fromEpochTime(static_cast<std::time_t>(epochSeconds)),
                                           "%Y-%m-%dT%H:%M:%S.%iZ");
}

std::int64_t epochFromTimestamp(const std::string& isoTimestamp) {
    int tzd = 0;
    return Poco::DateTimeParser::parse(Poco::DateTimeFormat::ISO8601_FRAC_FORMAT, normalizeTimestamp(isoTimestamp), tzd)
        .timestamp()
        .epochTime();
}

std::string newId() {
    return Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
}

Database::Database(Dialect dialect, std::unique_ptr<Poco::Data::SessionPool> pool, int busyTimeoutMs, const Clock& clock)
    : dialect_(dialect), clock_(clock), pool_(std::move(pool)), busyTimeoutMs_(busyTimeoutMs) {}

Database::~Database() {
    shutdown();
}

std::unique_ptr<Database> Database::open(const std::string& target, const PoolOptions& options, const Clock& clock) {
    registerConnectors();
    if (target.starts_with("postgresql://") || target.starts_with("postgres://")) {
        // A bounded connect: an unreachable server answers 503 instead of holding the request.
        auto connection = postgresConnectionString(target);
        if (connection.find("connect_timeout=") == std::string::npos) connection += " connect_timeout='5'";
        // A bounded lock wait: a request queued behind a stuck transaction's row lock answers 503.
        if (options.lockTimeoutMs > 0 && connection.find(" options=") == std::string::npos)
            // (-cname=value: POCO's connector splits the string at spaces, even inside quotes.)
            connection += " options='-clock_timeout=" + std::to_string(options.lockTimeoutMs) + "'";
        auto pool = std::make_unique<ConfiguredPool>(Dialect::PostgreSQL, "postgresql", connection, options);
        std::unique_ptr<Database> db(new Database(Dialect::PostgreSQL, std::move(pool), options.busyTimeoutMs, clock));
        db->ping();
        return db;
    }
    if (target.empty()) throw std::invalid_argument("database target is empty");
    {
        // WAL is a property of the file: set it once, before the pool opens more connections.
        Poco::Data::Session setup("SQLite", target);
        setup << "PRAGMA journal_mode = WAL", now;
    }
    auto pool = std::make_unique<ConfiguredPool>(Dialect::SQLite, "SQLite", target, options);
    std::unique_ptr<Database> db(new Database(Dialect::SQLite, std::move(pool), options.busyTimeoutMs, clock));
    db->ping();
    return db;
}

std::string_view Database::dialectName() const {
    return dialect_ == Dialect::SQLite ? "sqlite" : "postgresql";
}

Poco::Data::Session Database::session() {
    // Under a burst every session may be busy for a moment: wait for one (bounded) rather than
    // failing the request. Past the bound the exhaustion propagates and the client gets 503.
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + std::chrono::milliseconds(busyTimeoutMs_);
    auto pause = std::chrono::microseconds(200);
    bool waited = false;
    // Counted once per wait, when it ends (a session, or the bound passed).
    auto endWait = [&] {
        if (!waited) return;
        const auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
        poolWaits_.fetch_add(1, std::memory_order_relaxed);
        poolWaitMicros_.fetch_add(static_cast<std::uint64_t>(took.count()), std::memory_order_relaxed);
    };
    // PostgreSQL: an idle connection may have died (server restarted): drop it and take another;
    // at most once per session the pool can hold, then a new connection is made.
    int deadOnes = 0;
    while (true) {
        try {
            auto s = pool_->get();
            endWait();
            waited = false;
            if (dialect_ == Dialect::PostgreSQL && !Poco::AnyCast<bool>(s.getProperty(kConnectionAliveProperty))) {
                if (++deadOnes == 1)
                    Poco::Logger::get("storefront.db").warning("dropping database connections the server has closed");
                if (deadOnes <= pool_->capacity() + 1) continue; // `s` goes back marked bad and is discarded
            }
            return s;
        } catch (const Poco::Data::SessionPoolExhaustedException&) {
            if (std::chrono::steady_clock::now() >= deadline) {
                endWait();
                poolTimeouts_.fetch_add(1, std::memory_order_relaxed);
                throw;
            }
            waited = true;
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::microseconds(10000));
        } catch (const Poco::Data::PostgreSQL::PostgreSQLException& e) {
            // No new connection (the server is down or refusing): the request may be retried.
            throw Poco::Data::ConnectionFailedException("cannot connect to the database: " + e.displayText());
        }
    }
}

Database::PoolStats Database::poolStats() const {
    PoolStats stats;
    stats.waits = poolWaits_.load(std::memory_order_relaxed);
    stats.waitMicros = poolWaitMicros_.load(std::memory_order_relaxed);
    stats.timeouts = poolTimeouts_.load(std::memory_order_relaxed);
    stats.capacity = pool_->capacity();
    stats.inUse = pool_->used();
    return stats;
}

std::string Database::sql(std::string_view portableSql) const {
    return dialect_ == Dialect::PostgreSQL ? numberPlaceholders(portableSql) : std::string(portableSql);
}

void Database::write(const std::function<void(Tx&)>& work) {
    const bool sqlite = dialect_ == Dialect::SQLite;
    std::unique_lock<std::timed_mutex> writer(sqliteWriter_, std::defer_lock);
    if (sqlite && !writer.try_lock_for(std::chrono::milliseconds(busyTimeoutMs_)))
        throw Poco::Data::SessionPoolExhaustedException("waited too long for the SQLite write lock");
    auto s = session();
    Tx tx(*this, s);
    try {
        // PostgreSQL: the session's own BEGIN/COMMIT, each one simple query (one round trip).
        if (sqlite)
            s << "BEGIN IMMEDIATE", now;
        else
            s.begin();
        try {
            work(tx);
            if (sqlite)
                s << "COMMIT", now;
            else
                s.commit();
        } catch (...) {
            try {
                if (sqlite)
                    s << "ROLLBACK", now;
                else
                    s.rollback();
            } catch (const Poco::Exception&) {
                // The connection is broken; the pool discards it. The original error matters more.
            }
            throw;
        }
    } catch (const Poco::Data::ConnectionFailedException&) {
        throw;
    } catch (const Poco::Data::SQLite::DBLockedException& e) {
        // Another process (a second server, a shell command) held the write lock past the wait:
        // the same as a busy pool here, the client gets 503 and may retry.
        throw Poco::Data::SessionPoolExhaustedException("the SQLite database stayed locked: " + e.displayText());
    } catch (const Poco::Data::SQLite::TableLockedException& e) {
        throw Poco::Data::SessionPoolExhaustedException("the SQLite database stayed locked: " + e.displayText());
    } catch (const Poco::Exception& e) {
        // PostgreSQL: whatever failed (BEGIN, a statement, COMMIT), a lost connection is the cause
        // worth reporting: the client gets 503 and may retry (an unacknowledged COMMIT may or may
        // not have happened; writes are idempotent or checked where that matters).
        if (!sqlite && !s.isConnected())
            throw Poco::Data::ConnectionFailedException("the database connection was lost: " + e.displayText());
        throw;
    }
    if (writer.owns_lock()) writer.unlock();
    auto run = [](const std::function<void()>& fn) {
        try {
            fn();
        } catch (const std::exception& e) {
            Poco::Logger::get("storefront.db").error("after-commit hook failed: %s", std::string(e.what()));
        }
    };
    for (const auto& fn : tx.afterCommit_) run(fn);
    for (const auto& name : tx.topics_)
        if (auto it = subscribers_.find(name); it != subscribers_.end())
            for (const auto& fn : it->second) run(fn);
}

void Database::subscribe(const std::string& topic, std::function<void()> listener) {
    subscribers_[topic].push_back(std::move(listener));
}

void Database::ping() {
    auto s = session();
    int one = 0;
    s << "SELECT 1", into(one), now;
    if (one != 1) throw std::runtime_error("database ping returned an unexpected value");
}

void Database::shutdown() {
    if (pool_ && pool_->isActive()) pool_->shutdown();
}

} // namespace storefront::db

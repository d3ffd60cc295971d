#pragma once
// Every setting of the server, read from a properties file and the environment (the environment
// wins). docs/configuration.md lists them all; defaults sit beside each read in config.cpp.
#include "auth/settings.h"
#include "billing/settings.h"
#include "companion/settings.h"
#include "mail/settings.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace Poco::Util {
class AbstractConfiguration;
}

namespace storefront::app {




struct Config {
    // STOREFRONT_ENV: "production" (the default) or "development". In production the server
    // refuses to start with a setting unfit for the internet (app/production.h) and the local test
    // provider's pages do not exist; nothing else differs.
    std::string environment = "production";
    std::string bindAddress = "127.0.0.1";
    int port = 8080;
    std::string publicUrl = "http://localhost:8080"; // no trailing slash
    std::string dataDir = "data";
    std::string database; // SQLite path or postgresql:// URL; default <dataDir>/storefront.db
    std::string webDir;   // the web build (web/dist)
    bool seedCatalogue = true;
    // The local demo's rows (orders, subscriptions, workers...): `make run` only.
    bool demoData = false;
    int httpThreads = 1024;
    int httpLoops = 0; // event loop threads for waiting keep-alive connections; 0: one per core
    int httpQueue = 1024;
    int keepAliveSeconds = 5;
    int readTimeoutSeconds = 30; // a client silent this long in the middle of a request is dropped
    int headerTimeoutSeconds = 10; // a request's line and headers must arrive whole within this
    int sendTimeoutSeconds = 30;   // a client that takes none of an answer for this long is dropped
    int maxExports = 4;            // CSV exports streaming at once; the next gets 429 with Retry-After
    // Image uploads with more pixels than this are refused from their header (422 image_too_large).
    std::int64_t imageMaxPixels = 40'000'000;
    // `storefront restore`: a file the manifest declares larger than this is refused (16 GiB).
    std::uint64_t restoreMaxFileBytes = 16ULL << 30;
    std::size_t maxBodyBytes = 1 << 20;
    int dbPoolSize = 32;
    // How long a request waits for a database session (and, on SQLite, for the write lock) before
    // it is answered 503 with Retry-After.
    int dbWaitMs = 5000;
    // PostgreSQL: how long a statement waits for a lock (a row another transaction holds) before it
    // fails and the request is answered 503 server_busy (0: wait indefinitely).
    int dbLockTimeoutMs = 5000;
    // On SIGTERM: how long requests in flight may take to finish before their connections are cut.
    int drainSeconds = 10;
    int catalogCacheMs = 2000; // public catalogue responses are reused this long (0: never)
    // glibc malloc (common/malloc_tuning.h): at most this many arenas (0: glibc's own limit,
    // 8 per core), and free memory handed back to the system this often (0: never).
    int mallocArenaMax = 0;
    int mallocTrimSeconds = 60;
    std::vector<std::string> trustedProxies;
    int contactLimitPerWindow = 5;   // contact submissions per client address
    int contactWindowSeconds = 600;  // ... per this many seconds
    std::string logLevel = "information";
    std::string logFormat = "text"; // STOREFRONT_LOG_FORMAT: text or json (one object per line)
    // GET /metrics answers loopback peers, and others that send `Authorization: Bearer <token>`
    // when this is set (at least 16 characters).
    std::string metricsToken;
    mail::Settings mail;
    auth::Settings auth;
    billing::Settings payments;
    companion::Settings wirewrite;

    bool production() const { return environment == "production"; }
    bool httpsPublicUrl() const { return publicUrl.starts_with("https://"); }
    bool postgres() const { return database.starts_with("postgresql://") || database.starts_with("postgres://"); }
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// A loopback host name or address (localhost, 127.x.x.x, ::1), and a URL whose host is one.
bool isLoopbackHost(const std::string& host);
bool isLoopbackUrl(const std::string& url);

// The process environment.
std::optional<std::string> processEnv(const std::string& name);

// Builds the configuration: environment variable, else the properties key, else the default.
// Throws std::invalid_argument with a message naming the setting when a value is unusable.
Config loadConfig(const Poco::Util::AbstractConfiguration& properties, const EnvLookup& env,
                  const std::string& defaultWebDir);

} // namespace storefront::app

#include "app/storefront.h"

#include "app/jobs.h"
#include "app/metrics.h"
#include "app/production.h"
#include "audit/module.h"
#include "auth/module.h"
#include "backoffice/module.h"
#include "billing/module.h"
#include "catalog/module.h"
#include "common/malloc_tuning.h"
#include "companion/module.h"
#include "contact/module.h"
#include "db/database.h"
#include "db/migrations.h"
#include "db/rate_limiter.h"
#include "enterprise/module.h"
#include "http/api_error.h"
#include "http/response_cache.h"
#include "http/router.h"
#include "http/server.h"
#include "http/static_files.h"
#include "mail/module.h"
#include "privacy/module.h"
#include "seo/module.h"

#include <Poco/Logger.h>
#include <Poco/Timestamp.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace storefront::app {

namespace {

// A rate-limit window is pruned two days after it closed.
constexpr std::int64_t kRateLimitRetentionSeconds = 2 * 86400;

http::ServerOptions serverOptions(const Config& config) {
    http::ServerOptions options;
    options.bindAddress = config.bindAddress;
    options.port = config.port;
    options.maxThreads = config.httpThreads;
    options.eventLoops = config.httpLoops;
    options.maxQueued = config.httpQueue;
    options.keepAliveSeconds = config.keepAliveSeconds;
    options.readTimeoutSeconds = config.readTimeoutSeconds;
    options.headerTimeoutSeconds = config.headerTimeoutSeconds;
    options.sendTimeoutSeconds = config.sendTimeoutSeconds;
    options.maxStreams = config.maxExports;
    options.maxBodyBytes = config.maxBodyBytes;
    options.trustedProxies = config.trustedProxies;
    options.httpsPublicUrl = config.httpsPublicUrl();
    options.drainSeconds = config.drainSeconds;
    return options;
}

void healthRoute(http::Router& router, db::Database& database) {
    router.get("/healthz", http::Access::Anyone, [&database](http::Request&, http::Response& res) {
        try {
            database.ping();
        } catch (const std::exception&) {
            throw http::ApiError(http::ErrorKind::Unavailable, "database_unavailable", "The database is not answering.");
        }
        res.json(200, {{"status", "ok"}, {"database", std::string(database.dialectName())}});
    }, http::Store::Never);
}

} // namespace

struct Storefront::Parts {
    std::unique_ptr<db::Database> db;
    std::unique_ptr<db::RateLimiter> limiter;
    std::unique_ptr<http::ResponseCache> cache;
    http::StaticFiles files;
    std::unique_ptr<Jobs> jobs;
    auth::Module* auth = nullptr; // for its password-hashing queue's figures on /metrics
    // In dependency order: a module may hold references into the ones before it.
    std::vector<std::unique_ptr<storefront::Module>> modules;
    http::Router router;
    std::unique_ptr<http::Server> server;

    template <class M, class... Args>
    M& add(Args&&... args) {
        auto module = std::make_unique<M>(std::forward<Args>(args)...);
        auto& ref = *module;
        modules.push_back(std::move(module));
        return ref;
    }
};

Storefront::Storefront(Config config, const Clock& clock) : config_(std::move(config)), clock_(clock) {}

Storefront::~Storefront() { stop(); }

void Storefront::openDatabase() {
    auto& log = Poco::Logger::get("storefront");
    auto& p = *parts_;
    if (!config_.postgres()) {
        auto parent = std::filesystem::path(config_.database).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent);
    }
    if (!config_.dataDir.empty()) std::filesystem::create_directories(config_.dataDir);
    db::PoolOptions poolOptions;
    poolOptions.maxSessions = config_.dbPoolSize;
    poolOptions.busyTimeoutMs = config_.dbWaitMs;
    poolOptions.lockTimeoutMs = config_.dbLockTimeoutMs;
    p.db = db::Database::open(config_.database, poolOptions, clock_);
    for (const auto& name : db::migrate(*p.db)) log.information("applied migration %s", name);
    if (config_.seedCatalogue && db::seedIfEmpty(*p.db)) log.information("seeded the catalogue");
}

void Storefront::buildModules() {
    auto& p = *parts_;
    auto& db = *p.db;
    p.limiter = std::make_unique<db::RateLimiter>(db);
    p.cache = std::make_unique<http::ResponseCache>(std::chrono::milliseconds(config_.catalogCacheMs));
    p.jobs = std::make_unique<Jobs>(std::min(config_.mail.retryIntervalSeconds, 30));
    // After a committed write: queued mail goes out now, changed products leave the cache.
    db.subscribe(db::topic::kMail, [jobs = p.jobs.get()] { jobs->wake(); });
    db.subscribe(db::topic::kCatalog, [cache = p.cache.get()] { cache->clear(); });
    p.files.load(config_.webDir);
    if (p.files.empty()) Poco::Logger::get("storefront").warning("no web build found at '%s'; serving the API only", config_.webDir);

    auto& mail = p.add<mail::Module>(db, config_.mail);
    auto& auth = p.add<auth::Module>(db, config_.auth, config_.publicUrl, *p.limiter, mail.outbox());
    p.auth = &auth;
    auto& catalog = p.add<catalog::Module>(db, *p.cache, config_.webDir, config_.dataDir, config_.imageMaxPixels);
    // libvips starts once, before any request thread can use it; then the pictures of the old
    // uploads folder (before migration 0014) move into the database, once.
    catalog::startImageCodec();
    catalog.images().moveInUploadsFolder();
    auto& billing = p.add<billing::Module>(db, config_.payments, config_.publicUrl, config_.auth.siteName, catalog.products(), mail.outbox(),
                          config_.production());
    p.add<contact::Module>(db, mail.outbox(), config_.mail.salesAddress, *p.limiter,
                           contact::Limits{config_.contactLimitPerWindow, config_.contactWindowSeconds},
                           [&auth](const std::string& header) { return auth.identify(header); });
    auto& enterprise = p.add<enterprise::Module>(db, auth.admin(), mail.outbox(), config_.publicUrl, config_.auth.siteName);
    p.add<audit::Module>(db);
    p.add<backoffice::Module>(db, clock_, auth.customers());
    p.add<companion::Module>(db, config_.wirewrite, mail.outbox(), companion::SystemStatus{config_.mail.transport == "smtp" && !config_.mail.smtpHost.empty()}, clock_);
    p.add<privacy::Module>(db, auth.reauthentication(), billing.provider(), billing.checkout(), enterprise.service());
    seo::SiteInfo site;
    site.testPayments = config_.payments.allowTestPayments;
    site.publicUrl = config_.publicUrl;
    p.add<seo::Module>(catalog.products(), p.files, *p.cache, site);
}

void Storefront::start() {
    // main() says this before it gets here; an embedding (the tests) must not get round it.
    if (auto problems = productionProblems(config_); !problems.empty())
        throw std::invalid_argument(describeProductionProblems(problems));
    parts_ = std::make_unique<Parts>();
    auto& p = *parts_;
    openDatabase();
    buildModules();

    healthRoute(p.router, *p.db);
    MetricsSources metrics;
    metrics.server = [parts = parts_.get()]() -> const http::Server* { return parts->server.get(); };
    metrics.database = p.db.get();
    metrics.hasher = &p.auth->hasher();
    metrics.jobs = p.jobs.get();
    metricsRoute(p.router, std::move(metrics), config_.metricsToken);
    for (auto& module : p.modules) {
        module->routes(p.router);
        p.jobs->setOwner(std::string(module->name()));
        module->jobs(*p.jobs);
    }
    if (config_.demoData) {
        bool wrote = false;
        for (auto& module : p.modules)
            wrote |= db::runOnce(*p.db, "demo/" + std::string(module->name()), [&] { module->demo(*p.db); });
        if (wrote) Poco::Logger::get("storefront").information("wrote the demo data (STOREFRONT_DEMO_DATA)");
    }
    p.jobs->setOwner("rate_limits");
    p.jobs->hourly([limiter = p.limiter.get(), &clock = clock_] {
        limiter->prune(clock.epochSeconds() - kRateLimitRetentionSeconds);
    });
    // The free memory malloc keeps in holes between live blocks goes back to the system now and
    // then, so the resident set follows what is in use (common/malloc_tuning.h).
    auto trimAndLog = [] {
        const auto began = std::chrono::steady_clock::now();
        const bool released = common::releaseFreeMemory();
        auto& log = Poco::Logger::get("storefront.memory");
        if (log.debug()) {
            const auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began);
            log.debug("malloc_trim: %s in %d us", std::string(released ? "released memory" : "nothing to release"),
                      static_cast<int>(took.count()));
        }
        return released;
    };
    p.jobs->setOwner("memory_trim");
    p.jobs->everyRound(common::MemoryTrimmer(std::chrono::seconds(config_.mallocTrimSeconds),
                                             common::MemoryTrimmer::steadyMillis, trimAndLog));

    p.server = std::make_unique<http::Server>(p.router, serverOptions(config_));
    p.server->start();
    p.jobs->start();
    Poco::Logger::get("storefront").information("storefront listening on http://%s:%d (%s database, public URL %s)",
                                                config_.bindAddress, p.server->port(), std::string(p.db->dialectName()),
                                                config_.publicUrl);
}

void Storefront::stop() {
    if (!parts_) return;
    auto& p = *parts_;
    if (p.server) p.server->stop();
    if (p.jobs) p.jobs->stop();
    if (p.db) p.db->shutdown();
    // Later modules may hold references into earlier ones: take them down in reverse.
    while (!p.modules.empty()) p.modules.pop_back();
    parts_.reset();
}

std::vector<http::RouteInfo> Storefront::routes() const {
    return parts_ ? parts_->router.routes() : std::vector<http::RouteInfo>{};
}

int Storefront::port() const { return parts_ && parts_->server ? parts_->server->port() : 0; }

} // namespace storefront::app

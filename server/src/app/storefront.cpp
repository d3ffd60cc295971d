#include "app/storefront.h"

#include "app/jobs.h"
#include "audit/module.h"
#include "auth/auth_service.h"
#include "auth/password.h"
#include "auth/routes.h"
#include "auth/signing_keys.h"
#include "billing/account_queries.h"
#include "billing/checkout_service.h"
#include "billing/event_processor.h"
#include "billing/local_provider.h"
#include "billing/routes.h"
#include "billing/stripe_provider.h"
#include "billing/stripe_signature.h"
#include "catalog/product_repository.h"
#include "catalog/routes.h"
#include "contact/contact_service.h"
#include "contact/routes.h"
#include "db/database.h"
#include "enterprise/module.h"
#include "db/migrations.h"
#include "db/rate_limiter.h"
#include "http/api_error.h"
#include "http/response_cache.h"
#include "http/router.h"
#include "http/server.h"
#include "http/static_files.h"
#include "mail/outbox.h"
#include "mail/transport.h"
#include "seo/routes.h"

#include <Poco/Logger.h>
#include <Poco/Timestamp.h>

#include <filesystem>

namespace storefront::app {

struct Storefront::Parts {
    std::unique_ptr<db::Database> db;
    std::unique_ptr<db::RateLimiter> limiter;
    std::unique_ptr<mail::Transport> transport;
    std::unique_ptr<mail::Outbox> outbox;
    std::unique_ptr<catalog::ProductRepository> products;
    std::unique_ptr<contact::ContactService> contact;
    std::unique_ptr<auth::SigningKeys> keys;
    std::unique_ptr<auth::PasswordHasher> hasher;
    std::unique_ptr<auth::AuthService> auth;
    std::unique_ptr<billing::EventProcessor> events;
    std::unique_ptr<billing::PaymentProvider> provider;
    std::unique_ptr<billing::CheckoutService> checkout;
    std::unique_ptr<billing::AccountQueries> account;
    http::StaticFiles files;
    std::unique_ptr<http::ResponseCache> cache;
    std::unique_ptr<seo::PageRoutes> pages;
    http::Router router;
    std::unique_ptr<http::Server> server;
    std::unique_ptr<Jobs> jobs;
    std::unique_ptr<enterprise::Module> enterprise;
    std::unique_ptr<audit::Module> audit;
};

Storefront::Storefront(Config config) : config_(std::move(config)) {}

Storefront::~Storefront() { stop(); }

void Storefront::start() {
    auto& log = Poco::Logger::get("storefront");
    parts_ = std::make_unique<Parts>();
    auto& p = *parts_;

    if (!config_.postgres()) {
        auto parent = std::filesystem::path(config_.database).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent);
    }
    if (!config_.dataDir.empty()) std::filesystem::create_directories(config_.dataDir);

    db::PoolOptions poolOptions;
    poolOptions.maxSessions = config_.dbPoolSize;
    p.db = db::Database::open(config_.database, poolOptions);
    for (const auto& name : db::migrate(*p.db)) log.information("applied migration %s", name);
    if (config_.seedCatalogue && db::seedIfEmpty(*p.db)) log.information("seeded the catalogue");

    p.limiter = std::make_unique<db::RateLimiter>(*p.db);
    p.transport = mail::makeTransport(config_.mail);
    p.outbox = std::make_unique<mail::Outbox>(*p.db, *p.transport, config_.mail.from,
                                              config_.mail.retryIntervalSeconds, config_.mail.maxAttempts);
    p.products = std::make_unique<catalog::ProductRepository>(*p.db);
    p.contact = std::make_unique<contact::ContactService>(*p.db, *p.outbox, config_.mail.salesAddress);
    p.jobs = std::make_unique<Jobs>(std::min(config_.mail.retryIntervalSeconds, 30));
    p.jobs->everyRound([outbox = p.outbox.get()] { outbox->deliverDue(); });
    p.jobs->hourly([limiter = p.limiter.get()] { limiter->prune(Poco::Timestamp().epochTime() - 2 * 86400); });
    p.db->subscribe(db::topic::kMail, [jobs = p.jobs.get()] { jobs->wake(); });

    auto* jobsForMail = p.jobs.get();
    p.keys = std::make_unique<auth::SigningKeys>(*p.db);
    p.hasher = std::make_unique<auth::PasswordHasher>(auth::HashCost{config_.auth.argon2Ops, config_.auth.argon2MemoryKib},
                                                      config_.auth.hashConcurrency, config_.auth.hashQueue);
    p.auth = std::make_unique<auth::AuthService>(*p.db, config_.auth, config_.publicUrl, *p.keys, *p.hasher, *p.limiter, *p.outbox,
                                                 [jobsForMail] { jobsForMail->wake(); });
    p.jobs->hourly([auth = p.auth.get()] { auth->pruneExpired(); });

    p.cache = std::make_unique<http::ResponseCache>(std::chrono::milliseconds(config_.catalogCacheMs));
    auto stockChanged = [cache = p.cache.get()] { cache->clear(); };
    p.events = std::make_unique<billing::EventProcessor>(*p.db, *p.outbox, [jobsForMail] { jobsForMail->wake(); },
                                                         config_.publicUrl, stockChanged);
    billing::LocalProvider* localProvider = nullptr;
    if (config_.payments.provider == "local") {
        auto local = std::make_unique<billing::LocalProvider>(*p.db, *p.events, config_.publicUrl);
        localProvider = local.get();
        p.provider = std::move(local);
    } else {
        billing::StripeSettings stripe;
        stripe.secretKey = config_.payments.stripeSecretKey;
        stripe.apiBase = config_.payments.stripeApiBase;
        stripe.timeoutSeconds = config_.payments.stripeTimeoutSeconds;
        p.provider = std::make_unique<billing::StripeProvider>(stripe);
    }
    billing::CheckoutSettings checkoutSettings;
    checkoutSettings.publicUrl = config_.publicUrl;
    checkoutSettings.expirySeconds = config_.payments.checkoutExpirySeconds;
    // Stripe expires its own sessions and tells us; the job only steps in when that event is overdue.
    checkoutSettings.providerGraceSeconds = localProvider ? 0 : 3600;
    checkoutSettings.stockChanged = stockChanged;
    p.checkout = std::make_unique<billing::CheckoutService>(*p.db, *p.products, *p.provider, checkoutSettings);
    p.account = std::make_unique<billing::AccountQueries>(*p.db);
    p.jobs->everyRound([checkout = p.checkout.get()] { checkout->expireDue(); });

    p.files.load(config_.webDir);
    if (p.files.empty()) log.warning("no web build found at '%s'; serving the API only", config_.webDir);

    seo::SiteInfo site;
    site.publicUrl = config_.publicUrl;
    p.pages = std::make_unique<seo::PageRoutes>(*p.products, p.files, *p.cache, site);

    auto* database = p.db.get();
    p.router.get("/healthz", http::Access::Anyone, [database](http::Request&, http::Response& res) {
        try {
            database->ping();
        } catch (const std::exception&) {
            throw http::ApiError(http::ErrorKind::Unavailable, "database_unavailable", "The database is not answering.");
        }
        res.json(200, {{"status", "ok"}, {"database", std::string(database->dialectName())}});
        res.set("Cache-Control", "no-store");
    });
    auto* authService = p.auth.get();
    p.router.authorizer([authService](http::Request& req, http::Access access) { authService->authorize(req, access); });
    auth::registerRoutes(p.router, *p.auth, config_.auth);
    catalog::registerRoutes(p.router, *p.products, *p.cache);
    billing::registerRoutes(p.router, *p.checkout, *p.account);
    if (localProvider) billing::registerLocalPages(p.router, *localProvider, config_.auth.siteName);
    else billing::registerStripeWebhook(p.router, *p.events, billing::splitWebhookSecrets(config_.payments.stripeWebhookSecret));
    auto* jobs = p.jobs.get();
    contact::registerRoutes(p.router, *p.contact, *p.limiter,
                            {config_.contactLimitPerWindow, config_.contactWindowSeconds, [jobs] { jobs->wake(); }});
    p.pages->registerRoutes(p.router);
    p.enterprise = std::make_unique<enterprise::Module>(*p.db);
    p.enterprise->routes(p.router);
    p.audit = std::make_unique<audit::Module>(*p.db);
    p.audit->routes(p.router);

    http::ServerOptions options;
    options.bindAddress = config_.bindAddress;
    options.port = config_.port;
    options.maxThreads = config_.httpThreads;
    options.maxQueued = config_.httpQueue;
    options.keepAliveSeconds = config_.keepAliveSeconds;
    options.maxBodyBytes = config_.maxBodyBytes;
    options.trustedProxies = config_.trustedProxies;
    options.httpsPublicUrl = config_.httpsPublicUrl();
    p.server = std::make_unique<http::Server>(p.router, options);
    p.server->start();
    p.jobs->start();
    log.information("storefront listening on http://%s:%d (%s database, public URL %s)", config_.bindAddress,
                    p.server->port(), std::string(p.db->dialectName()), config_.publicUrl);
}

void Storefront::stop() {
    if (!parts_) return;
    auto& p = *parts_;
    if (p.server) p.server->stop();
    if (p.jobs) p.jobs->stop();
    if (p.db) p.db->shutdown();
    parts_.reset();
}

int Storefront::port() const { return parts_ && parts_->server ? parts_->server->port() : 0; }

} // namespace storefront::app

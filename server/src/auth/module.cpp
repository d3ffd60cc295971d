#include "auth/module.h"

#include "auth/routes.h"

namespace storefront::auth {

Module::Module(db::Database& db, const Settings& settings, std::string publicUrl, db::RateLimiter& limiter,
               mail::Outbox& outbox, int hashWorkers, int hashQueue)
    : settings_(settings), keys_(db),
      hasher_(HashCost{settings.argon2Ops, settings.argon2MemoryKib}, hashWorkers ? hashWorkers : settings.hashConcurrency,
              hashQueue ? hashQueue : settings.hashQueue),
      service_(db, settings, std::move(publicUrl), keys_, hasher_, limiter, outbox) {}

void Module::routes(http::Router& router) {
    router.authorizer([this](http::Request& req, http::Access access) { authorize(req, access); });
    registerRoutes(router, service_, settings_);
}

void Module::jobs(Schedule& schedule) {
    schedule.hourly([this] { service_.pruneExpired(); });
}

} // namespace storefront::auth

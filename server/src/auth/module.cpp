#include "auth/module.h"

#include "auth/routes.h"
#include "http/api_error.h"

namespace storefront::auth {

Module::Module(db::Database& db, const Settings& settings, std::string publicUrl, db::RateLimiter& limiter,
               mail::Outbox& outbox, int hashWorkers, int hashQueue)
    : settings_(settings), keys_(db, settings.jwtExpirySeconds), factorSecrets_(FactorSecrets::fromSettings(settings)),
      hasher_(HashCost{settings.argon2Ops, settings.argon2MemoryKib}, hashWorkers ? hashWorkers : settings.hashConcurrency,
              hashQueue ? hashQueue : settings.hashQueue, settings.hashIdlePriority),
      ctx_{db, settings, std::move(publicUrl), keys_, hasher_, limiter, outbox, factorSecrets_}, sessions_(ctx_), accounts_(ctx_, sessions_),
      factors_(ctx_, sessions_), admin_(ctx_, sessions_), customers_(ctx_), reauth_(ctx_), recoveryCodes_(ctx_) {
    // A wrong key stops start-up here, before any route answers; plain secrets get sealed.
    factors_.protectStoredSecrets();
}

void Module::routes(http::Router& router) {
    router.authorizer([this](http::Request& req, http::Access access) { sessions_.authorize(req, access); });
    registerRoutes(router, {accounts_, sessions_, factors_, admin_, recoveryCodes_}, settings_);
}

void Module::jobs(Schedule& schedule) {
    schedule.hourly([this] { sessions_.pruneExpired(); });
}

std::optional<std::string> Module::identify(const std::string& authorizationHeader) {
    if (authorizationHeader.empty()) return std::nullopt;
    try {
        return sessions_.authenticate(authorizationHeader).userId;
    } catch (const http::ApiError&) {
        return std::nullopt; // an expired or ended session sends the form as anyone would
    }
}

} // namespace storefront::auth

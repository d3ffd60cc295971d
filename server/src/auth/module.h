#pragma once
// The accounts area: /auth/v1 (GoTrue-compatible), the authoriser behind every route's declared
// access, and the hourly pruning of expired sessions and links. The `users create` command builds
// this module too, so it is wired one way only.
#include "auth/auth_service.h"
#include "auth/password.h"
#include "auth/settings.h"
#include "auth/signing_keys.h"
#include "common/module.h"
#include "db/rate_limiter.h"
#include "mail/outbox.h"

namespace storefront::auth {

class Module : public storefront::Module {
public:
    // `hashWorkers`/`hashQueue`: concurrent password hashes and the queue before 429 (settings'
    // values when 0); the shell command uses one of each.
    Module(db::Database& db, const Settings& settings, std::string publicUrl, db::RateLimiter& limiter, mail::Outbox& outbox,
           int hashWorkers = 0, int hashQueue = 0);
    std::string_view name() const override { return "auth"; }
    void routes(http::Router& router) override;
    void jobs(Schedule& schedule) override;

    // The http::Router authoriser.
    void authorize(http::Request& request, http::Access access) { service_.authorize(request, access); }
    AuthService& service() { return service_; }

private:
    const Settings& settings_;
    SigningKeys keys_;
    PasswordHasher hasher_;
    AuthService service_;
};

} // namespace storefront::auth

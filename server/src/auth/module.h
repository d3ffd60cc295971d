#pragma once
// The accounts area: /auth/v1 (GoTrue-compatible), the authoriser behind every route's declared
// access, and the hourly pruning of expired sessions and links. The `users create` command builds
// this module too, so it is wired one way only.
//
// Parts: Accounts (sign-up, sign-in, the user, links), Sessions (tokens, refresh, sign-out, the
// authoriser), Factors (TOTP), AdminUsers (the admin API and the shell command), over the
// repositories in Context.
#include "auth/accounts.h"
#include "auth/admin.h"
#include "auth/context.h"
#include "auth/customer_admin.h"
#include "auth/factors.h"
#include "auth/reauthentication.h"
#include "auth/recovery_codes.h"
#include "auth/sessions.h"
#include "common/module.h"

namespace storefront::auth {

class Module : public storefront::Module {
public:
    // `hashWorkers`/`hashQueue`: concurrent password hashes and the queue before 429 (the
    // settings' values when 0); the shell command uses one of each.
    Module(db::Database& db, const Settings& settings, std::string publicUrl, db::RateLimiter& limiter, mail::Outbox& outbox,
           int hashWorkers = 0, int hashQueue = 0);
    std::string_view name() const override { return "auth"; }
    void routes(http::Router& router) override;
    void jobs(Schedule& schedule) override;

    AdminUsers& admin() { return admin_; }
    // The staff's actions on a customer (/api/v1/admin/customers, served by the back office).
    CustomerAdmin& customers() { return customers_; }
    // The password-hashing queue (its depth and refusals are on /metrics).
    PasswordHasher& hasher() { return hasher_; }
    // The password (and code) check before closing an account (privacy area).
    Reauthentication& reauthentication() { return reauth_; }
    // Who sent a request to a public route, if its Authorization header names a live session:
    // the user's id; nullopt for no header or any token that does not check out (never an error).
    std::optional<std::string> identify(const std::string& authorizationHeader);

private:
    const Settings& settings_;
    SigningKeys keys_;
    FactorSecrets factorSecrets_;
    PasswordHasher hasher_;
    Context ctx_;
    Sessions sessions_;
    Accounts accounts_;
    Factors factors_;
    AdminUsers admin_;
    CustomerAdmin customers_;
    Reauthentication reauth_;
    RecoveryCodes recoveryCodes_;
};

} // namespace storefront::auth

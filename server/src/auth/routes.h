#pragma once
// /auth/v1: the GoTrue-compatible HTTP API (docs/auth.md). Reads each body into the services'
// typed input; the services never see raw JSON bodies.
#include "auth/accounts.h"
#include "auth/admin.h"
#include "auth/factors.h"
#include "auth/recovery_codes.h"
#include "auth/sessions.h"
#include "http/router.h"

namespace storefront::auth {

struct Services {
    Accounts& accounts;
    Sessions& sessions;
    Factors& factors;
    AdminUsers& admin;
    RecoveryCodes& recoveryCodes;
};

void registerRoutes(http::Router& router, Services services, const Settings& config);

} // namespace storefront::auth

#pragma once
// /auth/v1: the GoTrue-compatible HTTP API (docs/auth.md).
#include "auth/auth_service.h"
#include "http/router.h"

namespace storefront::auth {

void registerRoutes(http::Router& router, AuthService& service, const auth::Settings& config);

} // namespace storefront::auth

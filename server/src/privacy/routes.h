#pragma once
// GET /api/v1/account/export and DELETE /api/v1/account (signed in).
#include "common/clock.h"
#include "http/router.h"
#include "privacy/privacy_service.h"

namespace storefront::privacy {

void registerRoutes(http::Router& router, PrivacyService& service, const Clock& clock);

} // namespace storefront::privacy

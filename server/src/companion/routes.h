#pragma once
// The companion area's HTTP: the staff API (/api/v1/admin/wirewrite/..., Access::StaffAdmin) and
// the companion app's API (/api/v1/wirewrite/..., Access::SignedIn). docs/wirewrite.md.
#include "companion/companion_service.h"
#include "http/router.h"

namespace storefront::companion {

// What the staff dashboard's system status shows, from the real settings.
struct SystemStatus {
    bool mailConfigured = false;
};

void registerRoutes(http::Router& router, CompanionService& service, CompanionRepository& repo, SystemStatus status);

} // namespace storefront::companion

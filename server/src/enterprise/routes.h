#pragma once
// /api/v1/enterprise: the enterprise admin's own account (docs/openapi.yaml).
#include "enterprise/account_repository.h"
#include "http/router.h"

namespace storefront::enterprise {

// Registers the EnterpriseAdmin access check and the routes.
void registerRoutes(http::Router& router, AccountRepository& accounts);

} // namespace storefront::enterprise

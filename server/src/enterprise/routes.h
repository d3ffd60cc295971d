#pragma once
// /api/v1/enterprise (the account admin's team) and /api/v1/admin/enterprise-accounts (staff): see
// docs/openapi.yaml and docs/enterprise.md.
#include "enterprise/account_repository.h"
#include "enterprise/enterprise_service.h"
#include "http/router.h"

namespace storefront::enterprise {

// Registers the EnterpriseAdmin access check and the routes.
void registerRoutes(http::Router& router, AccountRepository& accounts, EnterpriseService& service);

} // namespace storefront::enterprise

#pragma once
// GET /api/v1/admin/audit: the audit log for staff (docs/openapi.yaml).
#include "audit/audit_repository.h"
#include "http/router.h"

namespace storefront::audit {

void registerRoutes(http::Router& router, AuditRepository& log);

} // namespace storefront::audit

#pragma once
// The audit log entry's JSON shape (GET /api/v1/admin/audit).
#include "audit/audit_repository.h"

#include <nlohmann/json.hpp>

namespace storefront::audit {

nlohmann::json toJson(const LogEntry& entry);

} // namespace storefront::audit

#pragma once
// Reading the audit log for the staff page (GET /api/v1/admin/audit): newest first, filtered in
// SQL, one page at a time. Writing is audit::record (audit.h), inside each change's transaction.
#include "audit/audit.h"
#include "db/database.h"
#include "db/list.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::audit {

struct LogFilter {
    std::optional<std::string> actor;  // part of the actor's email, or their user id
    std::optional<std::string> action; // exact action name
    std::optional<std::string> target; // a target type ("order") or a target id
};

struct LogEntry {
    std::string id, createdAt, action, actorRole, targetType;
    std::optional<std::string> actorId, actorEmail, actorAal, targetId, clientAddress;
    nlohmann::json before, after, detail;
};

class AuditRepository {
public:
    explicit AuditRepository(db::Database& db) : db_(db) {}

    // Newest first (the page's orderBy is the repository's own).
    db::Page<LogEntry> list(const LogFilter& filter, db::PageQuery page);

private:
    db::Database& db_;
};

// Writes one entry in `tx` (audit::record is the way in for other areas).
void insertEntry(db::Tx& tx, const Actor& actor, const Entry& entry);

} // namespace storefront::audit

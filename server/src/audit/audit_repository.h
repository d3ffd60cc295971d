#pragma once
// Reading the audit log for the staff page (GET /api/v1/admin/audit): newest first, filtered in
// SQL, one page at a time. Writing is audit::record (audit.h), inside each change's transaction.
#include "audit/audit.h"
#include "db/database.h"

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

    struct Page {
        std::vector<LogEntry> entries;
        std::int64_t total = 0;
    };
    Page list(const LogFilter& filter, std::int64_t limit, std::int64_t offset);

private:
    db::Database& db_;
};

nlohmann::json toJson(const LogEntry& entry);

// Writes one entry in `tx` (audit::record is the way in for other areas).
void insertEntry(db::Tx& tx, const Actor& actor, const Entry& entry);

} // namespace storefront::audit

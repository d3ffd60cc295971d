#include "audit/audit_repository.h"

#include "common/text.h"
#include "db/list.h"

namespace storefront::audit {

namespace {

constexpr const char* kInsert =
    "INSERT INTO audit_log (id, created_at, action, actor_id, actor_email, actor_role, actor_aal, target_type, "
    "target_id, before_json, after_json, detail, client_address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(created_at AS TEXT) AS created_at, action, CAST(actor_id AS TEXT) AS actor_id, "
    "actor_email, actor_role, actor_aal, target_type, target_id, before_json, after_json, detail, client_address "
    "FROM audit_log";
constexpr const char* kCount = "SELECT COUNT(*) FROM audit_log";
// Filters, each with its placeholders; appended in this order.
constexpr const char* kWhereActorEmail = "LOWER(actor_email) LIKE ? ESCAPE '\\'";
constexpr const char* kWhereActorEmailOrId = "(LOWER(actor_email) LIKE ? ESCAPE '\\' OR actor_id = ?)";
constexpr const char* kWhereAction = "action = ?";
constexpr const char* kWhereTarget = "(target_type = ? OR target_id = ?)";
// audit_log_created_at_idx serves this order.
constexpr const char* kNewestFirst = "created_at DESC, id DESC";

std::optional<std::string> jsonText(const nlohmann::json& value) {
    if (value.is_null()) return std::nullopt;
    return value.dump();
}

nlohmann::json parsedOrNull(const std::optional<std::string>& text) {
    if (!text) return nullptr;
    auto value = nlohmann::json::parse(*text, nullptr, false);
    return value.is_discarded() ? nlohmann::json(nullptr) : value;
}

LogEntry readEntry(const db::Row& r) {
    LogEntry e;
    e.id = r.text("id");
    e.createdAt = r.timestamp("created_at");
    e.action = r.text("action");
    e.actorId = r.optText("actor_id");
    e.actorEmail = r.optText("actor_email");
    e.actorRole = r.text("actor_role");
    e.actorAal = r.optText("actor_aal");
    e.targetType = r.text("target_type");
    e.targetId = r.optText("target_id");
    e.before = parsedOrNull(r.optText("before_json"));
    e.after = parsedOrNull(r.optText("after_json"));
    e.detail = parsedOrNull(r.optText("detail"));
    e.clientAddress = r.optText("client_address");
    return e;
}

db::Where whereOf(Poco::Data::Session& s, const LogFilter& filter) {
    db::Where w(s);
    if (filter.actor) {
        // actor_id is a UUID column: compare it only with something shaped like one.
        if (common::isUuid(*filter.actor)) w.add(kWhereActorEmailOrId, {db::likePattern(*filter.actor), *filter.actor});
        else w.add(kWhereActorEmail, {db::likePattern(*filter.actor)});
    }
    if (filter.action) w.add(kWhereAction, {*filter.action});
    if (filter.target) w.add(kWhereTarget, {*filter.target, *filter.target});
    return w;
}

} // namespace

void insertEntry(db::Tx& tx, const Actor& actor, const Entry& entry) {
    std::optional<std::string> client;
    if (!actor.clientAddress.empty()) client = actor.clientAddress;
    tx.query(kInsert)
        .bind(db::newId(), tx.clock().nowTimestamp(), entry.action, actor.userId, actor.email, actor.role, actor.aal)
        .bind(entry.targetType, entry.targetId, jsonText(entry.before), jsonText(entry.after))
        .bind(entry.detail.is_null() ? std::string("{}") : entry.detail.dump(), client)
        .run();
}

db::Page<LogEntry> AuditRepository::list(const LogFilter& filter, db::PageQuery page) {
    auto s = db_.session();
    page.orderBy = kNewestFirst;
    return db::countedPageOf<LogEntry>(s, kColumns, nullptr, kCount, whereOf(s, filter), page, readEntry);
}

} // namespace storefront::audit

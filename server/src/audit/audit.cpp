#include "audit/audit.h"

#include "http/request.h"

namespace storefront::audit {

namespace {

constexpr const char* kInsert =
    "INSERT INTO audit_log (id, created_at, action, actor_id, actor_email, actor_role, actor_aal, target_type, "
    "target_id, before_json, after_json, detail, client_address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

std::optional<std::string> jsonText(const nlohmann::json& value) {
    if (value.is_null()) return std::nullopt;
    return value.dump();
}

} // namespace

void record(db::Tx& tx, const Actor& actor, const Entry& entry) {
    std::optional<std::string> client;
    if (!actor.clientAddress.empty()) client = actor.clientAddress;
    tx.query(kInsert)
        .bind(db::newId(), db::nowTimestamp(), entry.action, actor.userId, actor.email, actor.role, actor.aal)
        .bind(entry.targetType, entry.targetId, jsonText(entry.before), jsonText(entry.after))
        .bind(entry.detail.is_null() ? std::string("{}") : entry.detail.dump(), client)
        .run();
}

Actor actorOf(const http::Request& request) {
    Actor actor;
    actor.clientAddress = request.clientAddress();
    if (const auto* caller = request.caller()) {
        actor.userId = caller->userId;
        if (!caller->email.empty()) actor.email = caller->email;
        actor.role = caller->staffAdmin ? "admin" : "customer";
        actor.aal = caller->aal;
    }
    return actor;
}

Actor systemActor(std::string role, std::string clientAddress) {
    Actor actor;
    actor.role = std::move(role);
    actor.clientAddress = std::move(clientAddress);
    return actor;
}

} // namespace storefront::audit

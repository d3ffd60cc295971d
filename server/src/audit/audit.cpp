#include "audit/audit.h"

#include "audit/audit_repository.h"
#include "http/request.h"

namespace storefront::audit {

void record(db::Tx& tx, const Actor& actor, const Entry& entry) { insertEntry(tx, actor, entry); }

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

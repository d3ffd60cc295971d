#pragma once
// The audit log every area writes to, inside the transaction of the change it records: who
// (user id, email, role, aal), what (an action name and its target), the target before and after
// as JSON, when, and from which client address. Never put a secret in an entry.
//
//   db.write([&](db::Tx& tx) {
//       ... the change ...
//       audit::record(tx, actor, {"product.updated", "product", id, before, after});
//   });
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::http {
class Request;
}

namespace storefront::audit {

// Who did it, as they were at the time.
struct Actor {
    std::optional<std::string> userId;
    std::optional<std::string> email;
    std::string role = "anonymous"; // anonymous | customer | admin | system (a job) | shell (the CLI)
    std::optional<std::string> aal;
    std::string clientAddress;
};

struct Entry {
    std::string action;                 // dotted or GoTrue event name: "product.updated", "login"
    std::string targetType;             // "user", "product", "order", ...
    std::optional<std::string> targetId;
    nlohmann::json before = nullptr;    // the target before the change (null for a create)
    nlohmann::json after = nullptr;     // the target after it (null for a delete)
    nlohmann::json detail = nlohmann::json::object(); // context that is not the target's state
};

// Inserts the entry in `tx`: it commits or rolls back with the change it describes.
void record(db::Tx& tx, const Actor& actor, const Entry& entry);

// The caller of a request (the signed-in user with their role and aal, or anonymous) and its
// client address.
Actor actorOf(const http::Request& request);
// A job or the shell acting on its own.
Actor systemActor(std::string role = "system", std::string clientAddress = "");

} // namespace storefront::audit

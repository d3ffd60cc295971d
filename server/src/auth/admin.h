#pragma once
// The staff admin API (/auth/v1/admin/*, /invite) and the shell's `storefront users create`.
#include "auth/context.h"
#include "auth/sessions.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::auth {

// A user as an admin creates or changes it; absent members are left as they are.
struct AdminUserInput {
    std::optional<std::string> email;
    std::optional<std::string> password;
    bool emailConfirm = false;
    std::optional<nlohmann::json> userMetadata;
    std::optional<nlohmann::json> appMetadata; // roles: ["admin"] grants, [] removes
    std::optional<std::string> banDuration;    // "24h" or "none"
};

struct LinkRequest {
    std::string type; // signup | invite | recovery
    std::optional<std::string> email;
    std::optional<std::string> password; // signup
    nlohmann::json data = nlohmann::json::object();
    std::optional<std::string> redirectTo;
};

struct UserPage {
    nlohmann::json users;
    std::int64_t total = 0;
};

class AdminUsers {
public:
    AdminUsers(Context& ctx, Sessions& sessions) : ctx_(ctx), sessions_(sessions) {}

    UserPage list(int page, int perPage);
    nlohmann::json get(const std::string& id);
    nlohmann::json create(const Principal& admin, const AdminUserInput& input, const ClientInfo& client);
    nlohmann::json update(const Principal& admin, const std::string& id, const AdminUserInput& input, const ClientInfo& client);
    nlohmann::json remove(const Principal& admin, const std::string& id, bool soft, const ClientInfo& client);
    nlohmann::json factors(const std::string& userId);
    nlohmann::json removeFactor(const Principal& admin, const std::string& userId, const std::string& factorId,
                                const ClientInfo& client);
    nlohmann::json invite(const Principal& admin, const std::optional<std::string>& email, const nlohmann::json& data,
                          const std::optional<std::string>& redirectTo, const ClientInfo& client);
    nlohmann::json generateLink(const Principal& admin, const LinkRequest& request, const ClientInfo& client);

    // `storefront users create`: a confirmed user, optionally an admin. Without a password the
    // result carries a one-time link (an invite) that lets the person set one.
    struct CreatedUser {
        std::string id;
        std::optional<std::string> setPasswordLink;
    };
    CreatedUser createFromShell(const std::string& email, const std::optional<std::string>& password, bool admin);

    // For another area's write that names a new person by email (an enterprise account's admin):
    // inside the caller's `tx`, a user created confirmed with no password, and a one-time
    // invitation link (the /auth/v1/verify flow, then the set-password step) that the caller
    // mails. Recorded as user_invited by `actor`. The caller has checked that no user has the
    // (normalised) address.
    struct InvitedUser {
        std::string id;
        std::string link;
    };
    InvitedUser inviteWithin(db::Tx& tx, const std::string& normalizedEmail, const std::optional<std::string>& redirectTo,
                             const audit::Actor& actor);

private:
    void changeEmail(db::Tx& tx, const UserRecord& user, const std::string& email);
    void changeRoles(db::Tx& tx, const Principal& admin, const std::string& id, const std::vector<std::string>& roles,
                     const audit::Actor& actor);
    void changeBan(db::Tx& tx, const std::string& id, const std::string& banDuration, const audit::Actor& actor);

    Context& ctx_;
    Sessions& sessions_;
};

} // namespace storefront::auth

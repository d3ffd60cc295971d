#pragma once
// Accounts: sign-up, password sign-in, the signed-in user and its changes, recovery, and spending
// the one-time email links.
#include "auth/context.h"
#include "auth/sessions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::auth {

struct SignUpInput {
    std::optional<std::string> email;
    std::optional<std::string> password;
    nlohmann::json data = nlohmann::json::object(); // user_metadata
    std::optional<std::string> redirectTo;
};

struct SignInInput {
    std::optional<std::string> email;
    std::optional<std::string> password;
};

struct UserChanges {
    std::optional<std::string> email;
    std::optional<std::string> password;
    // The password the user has now: needed to set a new one, except in a session begun at an
    // emailed link (GoTrue with GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD on).
    std::optional<std::string> currentPassword;
    std::optional<nlohmann::json> data; // merged into user_metadata; a null member removes it
    std::optional<std::string> redirectTo;
};

class Accounts {
public:
    Accounts(Context& ctx, Sessions& sessions) : ctx_(ctx), sessions_(sessions) {}

    nlohmann::json signUp(const SignUpInput& input, const ClientInfo& client);
    nlohmann::json signIn(const SignInInput& input, const ClientInfo& client);
    nlohmann::json user(const Principal& principal);
    // GET /api/v1/account/me: who the signed-in user is, for the web app's shell, in one call:
    // {id, email, full_name, roles, aal, factors, enterprise, pending_email}.
    nlohmann::json me(const Principal& principal);
    nlohmann::json update(const Principal& principal, const UserChanges& changes, const ClientInfo& client);
    void recover(const std::optional<std::string>& email, const std::optional<std::string>& redirectTo, const ClientInfo& client);
    // Spends a link token: a token response (a new session) for the user it belongs to.
    nlohmann::json verify(const std::string& type, const std::string& token, const ClientInfo& client);
    std::string safeRedirect(const std::optional<std::string>& redirectTo) const;

private:
    void throttleEmail(const std::string& email, const ClientInfo& client);
    // The answer to a sign-up for an address that is taken, shaped like a new user's.
    nlohmann::json decoy(db::Tx& tx, const UserRecord& existing, const SignUpInput& input, const std::string& email,
                         bool mailAllowed);
    void applyChanges(db::Tx& tx, const Principal& principal, const UserRecord& current, const UserChanges& changes,
                      const std::optional<std::string>& newEmail, const std::optional<std::string>& hash, const ClientInfo& client);
    // The user the link belongs to, once its checks pass, with the email change applied; nullopt
    // when the link is no good.
    std::optional<std::string> spendLink(db::Tx& tx, const std::string& type, const std::string& token);

    Context& ctx_;
    Sessions& sessions_;
};

} // namespace storefront::auth

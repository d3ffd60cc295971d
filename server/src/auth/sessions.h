#pragma once
// Sessions: issuing tokens, refresh-token rotation with reuse detection, sign-out, pruning, and
// the authoriser that turns a bearer token into the caller of every route.
#include "auth/context.h"
#include "http/request.h"
#include "http/router.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::auth {

class Sessions {
public:
    explicit Sessions(Context& ctx) : ctx_(ctx) {}

    // A new aal1 session for `user` signed in by `method`: GoTrue's token response.
    nlohmann::json signIn(db::Tx& tx, const UserRecord& user, const std::string& method, const ClientInfo& client);
    // The token response for an existing session and refresh token.
    nlohmann::json tokenResponse(Poco::Data::Session& s, const UserRecord& user, const std::string& sessionId,
                                 const std::string& refreshToken);
    // Ends every session of the user, or every one but `except`.
    void endAll(db::Tx& tx, const std::string& userId, const std::optional<std::string>& except);

    // grant_type=refresh_token: rotates the token (retries get the same child back; replays end the session).
    nlohmann::json refresh(const std::string& refreshToken, const ClientInfo& client);
    // scope: global | local | others.
    void logout(const Principal& principal, const std::string& scope, const ClientInfo& client);
    // Checks a bearer token against its live session: the caller, or ApiError (401 no_authorization,
    // 403 bad_jwt / session_not_found / user_banned).
    http::Caller authenticate(const std::string& authorizationHeader);
    // The http::Router authoriser: decides each route's Access for the request.
    void authorize(http::Request& request, http::Access access);
    // Deletes sessions past their limits, spent or expired links and challenges (hourly job).
    void pruneExpired();
    nlohmann::json jwks() const { return ctx_.keys.jwks(); }

private:
    struct Issued {
        std::string sessionId;
        std::string refreshToken;
    };
    Issued create(db::Tx& tx, const std::string& userId, const std::string& aal, const nlohmann::json& amr, const ClientInfo& client);
    std::string accessToken(const UserRecord& user, const std::vector<std::string>& roles, const std::string& sessionId,
                            const std::string& aal, const nlohmann::json& amr, long long now);
    // The token a rotated refresh token hands back on a retry, or nullopt for a replay.
    std::optional<std::string> activeChild(db::Tx& tx, const RefreshTokenRow& token, const std::string& presented);

    Context& ctx_;
};

// The principal of a request the authoriser let through.
Principal principalOf(const http::Request& request);

} // namespace storefront::auth

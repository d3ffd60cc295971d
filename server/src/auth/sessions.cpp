#include "auth/sessions.h"

#include "auth/secrets.h"
#include "auth/user_json.h"
#include "http/api_error.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

ApiError refreshNotFound() {
    return ApiError(ErrorKind::BadRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
}

constexpr std::size_t kMaxRefreshTokenBytes = 512;
constexpr std::size_t kMaxUserAgentBytes = 512;

nlohmann::json amrOf(const std::string& text) {
    auto amr = nlohmann::json::parse(text, nullptr, false);
    return amr.is_array() ? amr : nlohmann::json::array();
}

} // namespace

Principal principalOf(const http::Request& request) {
    const auto* caller = request.caller();
    if (!caller) return {};
    Principal principal{caller->userId, caller->sessionId, caller->email, caller->aal, caller->staffAdmin, caller->hasVerifiedFactor};
    if (auto amr = caller->claims.find("amr"); amr != caller->claims.end() && amr->is_array()) {
        for (const auto& entry : *amr) {
            const auto method = entry.is_object() ? entry.value("method", "") : std::string();
            if (method == "otp" || method == "magiclink" || method == "recovery") principal.linkSession = true;
        }
    }
    return principal;
}

Sessions::Issued Sessions::create(db::Tx& tx, const std::string& userId, const std::string& aal, const nlohmann::json& amr,
                                  const ClientInfo& client) {
    Issued issued{db::newId(), randomToken()};
    ctx_.sessions.insert(tx, {issued.sessionId, userId, aal, amr.dump(), client.userAgent.substr(0, kMaxUserAgentBytes), client.ip});
    ctx_.sessions.insertRefreshToken(tx, issued.sessionId, sha256Hex(issued.refreshToken), std::nullopt);
    return issued;
}

std::string Sessions::accessToken(const UserRecord& user, const std::vector<std::string>& roleList, const std::string& sessionId,
                                  const std::string& aal, const nlohmann::json& amr, long long nowSeconds) {
    auto app = user.appMetadata;
    app["provider"] = "email";
    app["providers"] = nlohmann::json::array({"email"});
    app["roles"] = roleList;
    nlohmann::json claims = {{"iss", ctx_.publicUrl + "/auth/v1"},
                             {"sub", user.id},
                             {"aud", "authenticated"},
                             {"exp", nowSeconds + ctx_.settings.jwtExpirySeconds},
                             {"iat", nowSeconds},
                             {"email", user.email.value_or("")},
                             {"phone", user.phone.value_or("")},
                             {"app_metadata", app},
                             {"user_metadata", user.userMetadata},
                             {"role", "authenticated"},
                             {"aal", aal},
                             {"amr", amr},
                             {"session_id", sessionId},
                             {"is_anonymous", false}};
    return ctx_.keys.sign(claims);
}

nlohmann::json Sessions::tokenResponse(Poco::Data::Session& s, const UserRecord& user, const std::string& sessionId,
                                       const std::string& refreshToken) {
    const auto level = ctx_.sessions.levelOf(s, sessionId).value_or(std::make_pair(std::string(), std::string("[]")));
    const long long nowSeconds = ctx_.db.clock().epochSeconds();
    const int expiry = ctx_.settings.jwtExpirySeconds;
    return {{"access_token", accessToken(user, ctx_.users.roles(s, user.id), sessionId, level.first, amrOf(level.second), nowSeconds)},
            {"token_type", "bearer"},
            {"expires_in", expiry},
            {"expires_at", nowSeconds + expiry},
            {"refresh_token", refreshToken},
            {"user", userJson(ctx_, s, user)}};
}

nlohmann::json Sessions::signIn(db::Tx& tx, const UserRecord& user, const std::string& method, const ClientInfo& client) {
    auto amr = nlohmann::json::array({{{"method", method}, {"timestamp", ctx_.db.clock().epochSeconds()}}});
    auto issued = create(tx, user.id, "aal1", amr, client);
    ctx_.users.setLastSignIn(tx, user.id);
    auto fresh = ctx_.users.find(tx.session(), user.id);
    return tokenResponse(tx.session(), fresh ? *fresh : user, issued.sessionId, issued.refreshToken);
}

void Sessions::endAll(db::Tx& tx, const std::string& userId, const std::optional<std::string>& except) {
    ctx_.sessions.removeForUser(tx, userId, except);
}

std::optional<std::string> Sessions::activeChild(db::Tx& tx, const RefreshTokenRow& token, const std::string& presented) {
    std::optional<std::string> opened = token.childSealed ? unseal(*token.childSealed, presented) : std::nullopt;
    if (opened && ctx_.sessions.isActiveToken(tx, sha256Hex(*opened))) return opened;
    return std::nullopt;
}

nlohmann::json Sessions::refresh(const std::string& presented, const ClientInfo& client) {
    if (presented.empty() || presented.size() > kMaxRefreshTokenBytes) throw refreshNotFound();
    const std::string hash = sha256Hex(presented);
    const auto& settings = ctx_.settings;

    // One write transaction, so parallel refreshes of one token queue behind each other: the first
    // rotates it, the rest see it rotated and get the same child back.
    nlohmann::json result;
    std::optional<ApiError> failure;
    ctx_.db.write([&](db::Tx& tx) {
        auto token = ctx_.sessions.findRefreshToken(tx, hash);
        auto user = token ? ctx_.users.find(tx.session(), token->userId) : std::nullopt;
        if (!token || !user) {
            failure = refreshNotFound();
            return;
        }
        const long long nowSeconds = ctx_.db.clock().epochSeconds();
        const bool timedOut =
            settings.sessionTimeboxSeconds > 0 && nowSeconds - unixSeconds(token->sessionCreatedAt) > settings.sessionTimeboxSeconds;
        const bool idle =
            settings.sessionInactivitySeconds > 0 && nowSeconds - unixSeconds(token->refreshedAt) > settings.sessionInactivitySeconds;
        if (timedOut || idle || user->banned(ctx_.db.clock())) {
            ctx_.sessions.remove(tx, token->sessionId);
            recordEvent(tx, "session_expired", token->userId, anonymousActor(client),
                        {{"reason", timedOut ? "timebox" : idle ? "inactivity" : "banned"}});
            failure = ApiError(ErrorKind::BadRequest, "session_expired", "Invalid Refresh Token: Session Expired");
            return;
        }
        if (!token->revoked) {
            const std::string child = randomToken();
            if (ctx_.sessions.rotate(tx, token->id, seal(child, presented))) {
                ctx_.sessions.insertRefreshToken(tx, token->sessionId, sha256Hex(child), hash);
                ctx_.sessions.markRefreshed(tx, token->sessionId);
                result = tokenResponse(tx.session(), *user, token->sessionId, child);
                return;
            }
            // Another request rotated it a moment ago: read what it left.
            token->childSealed = ctx_.sessions.childSealed(tx, token->id);
        }
        // A rotated token came back. If its child is still the active token, this is a retry (a
        // lost response, or a parallel refresh): hand the active token back. Anything older is a
        // replay: end the session.
        if (auto child = activeChild(tx, *token, presented)) {
            result = tokenResponse(tx.session(), *user, token->sessionId, *child);
            return;
        }
        ctx_.sessions.remove(tx, token->sessionId);
        recordEvent(tx, "token_reuse_detected", token->userId, anonymousActor(client), {{"session_id", token->sessionId}});
        failure = ApiError(ErrorKind::BadRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    });
    if (failure) {
        if (failure->code() == "refresh_token_already_used")
            Poco::Logger::get("auth").warning("refresh token reuse detected; the session was ended");
        throw *failure;
    }
    return result;
}

void Sessions::pruneExpired() {
    const auto& settings = ctx_.settings;
    ctx_.db.write([&](db::Tx& tx) {
        ctx_.users.pruneLinks(tx, ctx_.db.clock().timestampAfter(-7 * 86400));
        ctx_.factors.pruneChallenges(tx, ctx_.db.clock().timestampAfter(-86400));
        ctx_.factors.pruneWrongCodes(tx, ctx_.db.clock().timestampAfter(-86400)); // the window is at most a day
        if (settings.sessionTimeboxSeconds > 0)
            ctx_.sessions.pruneCreatedBefore(tx, ctx_.db.clock().timestampAfter(-settings.sessionTimeboxSeconds));
        if (settings.sessionInactivitySeconds > 0)
            ctx_.sessions.pruneRefreshedBefore(tx, ctx_.db.clock().timestampAfter(-settings.sessionInactivitySeconds));
    });
}

void Sessions::logout(const Principal& principal, const std::string& scope, const ClientInfo& client) {
    ctx_.db.write([&](db::Tx& tx) {
        nlohmann::json detail = {{"scope", scope}};
        if (scope == "local") {
            ctx_.sessions.remove(tx, principal.sessionId);
        } else {
            // Signing out everywhere (or every other device) is securing the account: the emailed
            // links still waiting go with the sessions.
            endAll(tx, principal.userId, scope == "others" ? std::optional(principal.sessionId) : std::nullopt);
            detail["links_voided"] = ctx_.users.voidPendingLinks(tx, principal.userId);
        }
        recordEvent(tx, "logout", principal.userId, actorOf(principal, client), detail);
    });
}

http::Caller Sessions::authenticate(const std::string& authorization) {
    const std::string prefix = "bearer ";
    if (authorization.size() <= prefix.size() || Poco::icompare(authorization.substr(0, prefix.size()), prefix) != 0)
        throw ApiError(ErrorKind::Unauthorized, "no_authorization", "This endpoint requires a valid Bearer token");
    const std::string token = Poco::trim(authorization.substr(prefix.size()));
    auto claims = ctx_.keys.verify(token);
    if (!claims) throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature");
    const auto& c = *claims;
    if (!c.contains("exp") || !c["exp"].is_number_integer() || c["exp"].get<long long>() <= ctx_.db.clock().epochSeconds())
        throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is expired");
    if (!c.contains("session_id") || !c["session_id"].is_string() || !c.contains("sub") || !c["sub"].is_string())
        throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: the token has no session");

    http::Caller caller;
    caller.userId = c["sub"];
    caller.sessionId = c["session_id"];
    caller.aal = c.value("aal", "aal1");
    caller.claims = c;
    auto s = ctx_.db.session();
    auto row = ctx_.sessions.sessionUser(s, caller.sessionId, caller.userId);
    if (!row) throw ApiError(ErrorKind::Forbidden, "session_not_found", "Session from session_id claim in JWT does not exist");
    if (row->bannedUntil && *row->bannedUntil > ctx_.db.clock().nowTimestamp()) throw ApiError(ErrorKind::Forbidden, "user_banned", "User is banned");
    caller.email = row->email.value_or("");
    caller.staffAdmin = row->staffAdmin;
    caller.hasVerifiedFactor = row->hasVerifiedFactor;
    return caller;
}

void Sessions::authorize(http::Request& request, http::Access access) {
    if (access == http::Access::Anyone) return;
    auto caller = authenticate(request.header("Authorization"));
    const bool needsStepUp = caller.hasVerifiedFactor && caller.aal != "aal2";
    switch (access) {
    case http::Access::Anyone:
    case http::Access::SignedInAnyAal:
        break;
    case http::Access::SignedIn:
    case http::Access::EnterpriseAdmin: // plus enterprise/'s own check, which the router runs next
        if (needsStepUp) throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "Enter your two-factor code to continue.");
        break;
    case http::Access::StaffAdmin:
        if (!caller.staffAdmin) throw ApiError(ErrorKind::Forbidden, "not_admin", "Access denied. Admin privileges required.");
        if (needsStepUp) throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "Enter your two-factor code to continue.");
        if (ctx_.settings.adminMfaRequired && !caller.hasVerifiedFactor)
            throw ApiError(ErrorKind::Forbidden, "mfa_enrollment_required",
                           "Set up two-factor authentication at /admin/mfa before using the admin tools.");
        break;
    }
    request.setCaller(std::move(caller));
}

} // namespace storefront::auth

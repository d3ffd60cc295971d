// Sessions: issuing tokens, refresh-token rotation with reuse detection, sign-out, and turning a
// bearer token into a caller for every route.
#include "auth/auth_service.h"

#include "audit/audit.h"

#include "auth/secrets.h"
#include "db/row.h"
#include "http/api_error.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Logger.h>
#include <Poco/Nullable.h>
#include <Poco/String.h>

using namespace Poco::Data::Keywords;
using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

ApiError refreshNotFound() {
    return ApiError(ErrorKind::BadRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
}

struct TokenRow {
    std::string id, sessionId, userId, aal, amr, sessionCreatedAt, refreshedAt;
    bool revoked = false;
    std::optional<std::string> childSealed;
};

} // namespace

void AuthService::audit(Poco::Data::Session& s, const std::string& event, const std::optional<std::string>& userId,
                        const std::optional<std::string>& actorId, const ClientInfo& client, const nlohmann::json& detail) {
    db::Tx tx(db_, s);
    audit::Actor actor;
    actor.userId = actorId;
    actor.role = actorId ? "admin" : "anonymous";
    actor.clientAddress = client.ip;
    audit::record(tx, actor, {event, "user", userId, nullptr, nullptr, detail});
}

AuthService::Issued AuthService::createSession(Poco::Data::Session& s, const std::string& userId, const std::string& aal,
                                               const nlohmann::json& amr, const ClientInfo& client) {
    Issued issued{db::newId(), randomToken()};
    std::string uid = userId, level = aal, amrText = amr.dump(), ua = client.userAgent.substr(0, 512), ip = client.ip,
                at = db::nowTimestamp();
    s << db_.sql("INSERT INTO auth_sessions (id, user_id, aal, amr, user_agent, ip, created_at, updated_at, refreshed_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        use(issued.sessionId), use(uid), use(level), use(amrText), use(ua), use(ip), use(at), use(at), use(at), now;
    std::string tokenId = db::newId(), hash = sha256Hex(issued.refreshToken);
    s << db_.sql("INSERT INTO auth_refresh_tokens (id, session_id, token_hash, revoked, created_at, updated_at) "
                 "VALUES (?, ?, ?, FALSE, ?, ?)"),
        use(tokenId), use(issued.sessionId), use(hash), use(at), use(at), now;
    return issued;
}

std::string AuthService::accessToken(const UserRecord& user, const std::vector<std::string>& roleList,
                                     const std::string& sessionId, const std::string& aal, const nlohmann::json& amr,
                                     long long nowSeconds) {
    auto app = user.appMetadata;
    app["provider"] = "email";
    app["providers"] = nlohmann::json::array({"email"});
    app["roles"] = roleList;
    nlohmann::json claims = {{"iss", publicUrl_ + "/auth/v1"},
                             {"sub", user.id},
                             {"aud", "authenticated"},
                             {"exp", nowSeconds + config_.jwtExpirySeconds},
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
    return keys_.sign(claims);
}

nlohmann::json AuthService::tokenResponse(Poco::Data::Session& s, const UserRecord& user, const std::string& sessionId,
                                          const std::string& refreshToken) {
    std::string sid = sessionId, aal, amrText;
    s << db_.sql("SELECT aal, amr FROM auth_sessions WHERE id = ?"), use(sid), into(aal), into(amrText), now;
    auto amr = nlohmann::json::parse(amrText, nullptr, false);
    if (!amr.is_array()) amr = nlohmann::json::array();
    const long long nowSeconds = unixNow();
    return {{"access_token", accessToken(user, roles(s, user.id), sessionId, aal, amr, nowSeconds)},
            {"token_type", "bearer"},
            {"expires_in", config_.jwtExpirySeconds},
            {"expires_at", nowSeconds + config_.jwtExpirySeconds},
            {"refresh_token", refreshToken},
            {"user", userJson(s, user)}};
}

nlohmann::json AuthService::signInNewSession(Poco::Data::Session& s, const UserRecord& user, const std::string& method,
                                             const ClientInfo& client) {
    auto amr = nlohmann::json::array({{{"method", method}, {"timestamp", unixNow()}}});
    auto issued = createSession(s, user.id, "aal1", amr, client);
    std::string uid = user.id, at = db::nowTimestamp();
    s << db_.sql("UPDATE users SET last_sign_in_at = ?, updated_at = ? WHERE id = ?"), use(at), use(at), use(uid), now;
    auto fresh = findUserById(s, user.id);
    return tokenResponse(s, fresh ? *fresh : user, issued.sessionId, issued.refreshToken);
}

void AuthService::endSessions(Poco::Data::Session& s, const std::string& userId, const std::optional<std::string>& except) {
    std::string uid = userId;
    if (except) {
        std::string keep = *except;
        s << db_.sql("DELETE FROM auth_sessions WHERE user_id = ? AND id <> ?"), use(uid), use(keep), now;
    } else {
        s << db_.sql("DELETE FROM auth_sessions WHERE user_id = ?"), use(uid), now;
    }
}

nlohmann::json AuthService::refresh(const nlohmann::json& body, const ClientInfo& client) {
    auto it = body.find("refresh_token");
    if (it == body.end() || !it->is_string() || it->get<std::string>().empty() || it->get<std::string>().size() > 512)
        throw refreshNotFound();
    const std::string presented = *it;
    const std::string hash = sha256Hex(presented);

    // One write transaction, so parallel refreshes of one token queue behind each other: the first
    // rotates it, the rest see it rotated and get the same child back.
    nlohmann::json result;
    std::optional<ApiError> failure;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        Poco::Data::Statement select(s);
        std::string h = hash;
        select << db_.sql("SELECT CAST(t.id AS TEXT) AS id, CAST(t.session_id AS TEXT) AS session_id, t.revoked, t.child_sealed, "
                          "CAST(s.user_id AS TEXT) AS user_id, s.aal, s.amr, CAST(s.created_at AS TEXT) AS session_created_at, "
                          "CAST(s.refreshed_at AS TEXT) AS refreshed_at FROM auth_refresh_tokens t "
                          "JOIN auth_sessions s ON s.id = t.session_id WHERE t.token_hash = ?"),
            use(h);
        select.execute();
        Poco::Data::RecordSet rs(select);
        if (rs.rowCount() == 0) {
            failure = refreshNotFound();
            return;
        }
        db::Row row(rs, 0);
        TokenRow t{row.text("id"), row.text("session_id"), row.text("user_id"), row.text("aal"), row.text("amr"),
                   row.timestamp("session_created_at"), row.timestamp("refreshed_at"), row.boolean("revoked"),
                   row.optText("child_sealed")};

        auto user = findUserById(s, t.userId);
        if (!user) {
            failure = refreshNotFound();
            return;
        }
        const long long nowSeconds = unixNow();
        const bool timedOut = config_.sessionTimeboxSeconds > 0 && nowSeconds - unixSeconds(t.sessionCreatedAt) > config_.sessionTimeboxSeconds;
        const bool idle = config_.sessionInactivitySeconds > 0 && nowSeconds - unixSeconds(t.refreshedAt) > config_.sessionInactivitySeconds;
        if (timedOut || idle || user->banned()) {
            std::string sid = t.sessionId;
            s << db_.sql("DELETE FROM auth_sessions WHERE id = ?"), use(sid), now;
            audit(s, "session_expired", t.userId, std::nullopt, client, {{"reason", timedOut ? "timebox" : idle ? "inactivity" : "banned"}});
            failure = ApiError(ErrorKind::BadRequest, "session_expired", "Invalid Refresh Token: Session Expired");
            return;
        }

        std::string at = db::nowTimestamp(), id = t.id;
        std::string child;
        if (!t.revoked) {
            child = randomToken();
            std::string sealed = seal(child, presented);
            Poco::Data::Statement rotate(s);
            rotate << db_.sql("UPDATE auth_refresh_tokens SET revoked = TRUE, child_sealed = ?, updated_at = ? "
                              "WHERE id = ? AND revoked = FALSE"),
                use(sealed), use(at), use(id);
            if (rotate.execute() == 1) {
                std::string childId = db::newId(), childHash = sha256Hex(child), sid = t.sessionId, parent = hash;
                s << db_.sql("INSERT INTO auth_refresh_tokens (id, session_id, token_hash, parent_hash, revoked, created_at, updated_at) "
                             "VALUES (?, ?, ?, ?, FALSE, ?, ?)"),
                    use(childId), use(sid), use(childHash), use(parent), use(at), use(at), now;
                s << db_.sql("UPDATE auth_sessions SET refreshed_at = ?, updated_at = ? WHERE id = ?"), use(at), use(at), use(sid), now;
                result = tokenResponse(s, *user, t.sessionId, child);
                return;
            }
            // Another request rotated it a moment ago: read what it left.
            std::string sealedNow;
            s << db_.sql("SELECT child_sealed FROM auth_refresh_tokens WHERE id = ?"), use(id), into(sealedNow), now;
            t.childSealed = sealedNow;
        }

        // A rotated token came back. If its child is still the active token, this is a retry (a
        // lost response, or a parallel refresh): hand the active token back. Anything older is a
        // replay: end the session.
        std::optional<std::string> opened = t.childSealed ? unseal(*t.childSealed, presented) : std::nullopt;
        if (opened) {
            std::string childHash = sha256Hex(*opened);
            Poco::Int64 active = 0;
            s << db_.sql("SELECT COUNT(*) FROM auth_refresh_tokens WHERE token_hash = ? AND revoked = FALSE"), use(childHash),
                into(active), now;
            if (active == 1) {
                result = tokenResponse(s, *user, t.sessionId, *opened);
                return;
            }
        }
        std::string sid = t.sessionId;
        s << db_.sql("DELETE FROM auth_sessions WHERE id = ?"), use(sid), now;
        audit(s, "token_reuse_detected", t.userId, std::nullopt, client, {{"session_id", t.sessionId}});
        failure = ApiError(ErrorKind::BadRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    });
    if (failure) {
        if (failure->code() == "refresh_token_already_used")
            Poco::Logger::get("auth").warning("refresh token reuse detected; the session was ended");
        throw *failure;
    }
    return result;
}

void AuthService::pruneExpired() {
    const std::string week = db::timestampAfter(-7 * 86400), day = db::timestampAfter(-86400);
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string w = week, d = day;
        s << db_.sql("DELETE FROM auth_one_time_tokens WHERE expires_at < ? OR used_at < ?"), use(w), use(w), now;
        s << db_.sql("DELETE FROM mfa_challenges WHERE expires_at < ?"), use(d), now;
        if (config_.sessionTimeboxSeconds > 0) {
            std::string cutoff = db::timestampAfter(-config_.sessionTimeboxSeconds);
            s << db_.sql("DELETE FROM auth_sessions WHERE created_at < ?"), use(cutoff), now;
        }
        if (config_.sessionInactivitySeconds > 0) {
            std::string cutoff = db::timestampAfter(-config_.sessionInactivitySeconds);
            s << db_.sql("DELETE FROM auth_sessions WHERE refreshed_at < ?"), use(cutoff), now;
        }
    });
}

void AuthService::logout(const http::Caller& caller, const std::string& scope) {
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string sid = caller.sessionId;
        if (scope == "global") endSessions(s, caller.userId, std::nullopt);
        else if (scope == "others") endSessions(s, caller.userId, caller.sessionId);
        else s << db_.sql("DELETE FROM auth_sessions WHERE id = ?"), use(sid), now;
        audit(s, "logout", caller.userId, std::nullopt, ClientInfo{}, {{"scope", scope}});
    });
}

http::Caller AuthService::authenticate(const std::string& authorization) {
    const std::string prefix = "bearer ";
    if (authorization.size() <= prefix.size() || Poco::icompare(authorization.substr(0, prefix.size()), prefix) != 0)
        throw ApiError(ErrorKind::Unauthorized, "no_authorization", "This endpoint requires a valid Bearer token");
    const std::string token = Poco::trim(authorization.substr(prefix.size()));
    auto claims = keys_.verify(token);
    if (!claims) throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature");
    const auto& c = *claims;
    if (!c.contains("exp") || !c["exp"].is_number_integer() || c["exp"].get<long long>() <= unixNow())
        throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is expired");
    if (!c.contains("session_id") || !c["session_id"].is_string() || !c.contains("sub") || !c["sub"].is_string())
        throw ApiError(ErrorKind::Forbidden, "bad_jwt", "invalid JWT: the token has no session");

    http::Caller caller;
    caller.userId = c["sub"];
    caller.sessionId = c["session_id"];
    caller.aal = c.value("aal", "aal1");
    caller.claims = c;

    auto session = db_.session();
    Poco::Data::Statement select(session);
    std::string sid = caller.sessionId, uid = caller.userId;
    select << db_.sql("SELECT u.email, CAST(u.banned_until AS TEXT) AS banned_until, "
                      "(SELECT COUNT(*) FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admins, "
                      "(SELECT COUNT(*) FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS factors "
                      "FROM auth_sessions s JOIN users u ON u.id = s.user_id "
                      "WHERE s.id = ? AND s.user_id = ? AND u.deleted_at IS NULL"),
        use(sid), use(uid);
    select.execute();
    Poco::Data::RecordSet rs(select);
    if (rs.rowCount() == 0)
        throw ApiError(ErrorKind::Forbidden, "session_not_found", "Session from session_id claim in JWT does not exist");
    db::Row row(rs, 0);
    if (auto banned = row.optTimestamp("banned_until"); banned && *banned > db::nowTimestamp())
        throw ApiError(ErrorKind::Forbidden, "user_banned", "User is banned");
    caller.email = row.optText("email").value_or("");
    caller.staffAdmin = row.int64("admins") > 0;
    caller.hasVerifiedFactor = row.int64("factors") > 0;
    return caller;
}

void AuthService::authorize(http::Request& request, http::Access access) {
    if (access == http::Access::Anyone) return;
    auto caller = authenticate(request.header("Authorization"));
    const bool needsStepUp = caller.hasVerifiedFactor && caller.aal != "aal2";
    switch (access) {
    case http::Access::Anyone:
    case http::Access::SignedInAnyAal:
        break;
    case http::Access::SignedIn:
    case http::Access::EnterpriseAdmin: // plus enterprise/'s own check, which the router runs next
        if (needsStepUp)
            throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "Enter your two-factor code to continue.");
        break;
    case http::Access::StaffAdmin:
        if (!caller.staffAdmin) throw ApiError(ErrorKind::Forbidden, "not_admin", "Access denied. Admin privileges required.");
        if (needsStepUp)
            throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "Enter your two-factor code to continue.");
        if (config_.adminMfaRequired && !caller.hasVerifiedFactor)
            throw ApiError(ErrorKind::Forbidden, "mfa_enrollment_required",
                           "Set up two-factor authentication at /admin/mfa before using the admin tools.");
        break;
    }
    request.setCaller(std::move(caller));
}

} // namespace storefront::auth

// TOTP factors: enrol, challenge, verify (the step up to aal2), unenrol.
#include "auth/auth_service.h"

#include "auth/fields.h"
#include "auth/secrets.h"
#include "auth/totp.h"
#include "common/text.h"
#include "db/row.h"
#include "http/api_error.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Nullable.h>

using namespace Poco::Data::Keywords;
using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

constexpr int kChallengeSeconds = 300;
constexpr int kMaxFactors = 10;

ApiError factorNotFound() { return ApiError(ErrorKind::NotFound, "mfa_factor_not_found", "Factor not found"); }

struct Factor {
    std::string id, status, secret;
};

std::optional<Factor> ownFactor(db::Database& db, Poco::Data::Session& s, const std::string& userId, const std::string& factorId) {
    if (!common::isUuid(factorId)) return std::nullopt;
    Poco::Data::Statement select(s);
    std::string fid = factorId, uid = userId;
    select << db.sql("SELECT status, secret FROM mfa_factors WHERE id = ? AND user_id = ?"), use(fid), use(uid);
    select.execute();
    Poco::Data::RecordSet rs(select);
    if (rs.rowCount() == 0) return std::nullopt;
    db::Row row(rs, 0);
    return Factor{factorId, row.text("status"), row.text("secret")};
}

} // namespace

nlohmann::json AuthService::enrollFactor(const http::Caller& caller, const nlohmann::json& body, const ClientInfo& client) {
    const std::string type = optionalString(body, "factor_type").value_or("");
    if (type != "totp") throw ApiError(ErrorKind::BadRequest, "validation_failed", "factor_type must be totp");
    std::optional<std::string> friendlyName;
    if (auto it = body.find("friendly_name"); it != body.end() && !it->is_null()) {
        if (!it->is_string() || it->get<std::string>().size() > 120)
            throw ApiError(ErrorKind::BadRequest, "validation_failed", "friendly_name must be text of at most 120 characters");
        if (!it->get<std::string>().empty()) friendlyName = it->get<std::string>();
    }
    const std::string secret = newTotpSecret();
    const std::string uri = otpauthUri(config_.siteName, caller.email.empty() ? caller.userId : caller.email, secret);
    const std::string id = db::newId();
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string uid = caller.userId, at = db::nowTimestamp(), fid = id, sec = secret, t = type;
        // Earlier unfinished enrolments are dropped: only the newest QR code can be completed.
        s << db_.sql("DELETE FROM mfa_factors WHERE user_id = ? AND status = 'unverified'"), use(uid), now;
        Poco::Int64 count = 0;
        s << db_.sql("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?"), use(uid), into(count), now;
        if (count >= kMaxFactors)
            throw ApiError(ErrorKind::Validation, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue");
        if (friendlyName) {
            Poco::Int64 clash = 0;
            std::string name = *friendlyName;
            s << db_.sql("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ? AND friendly_name = ?"), use(uid), use(name), into(clash), now;
            if (clash > 0)
                throw ApiError(ErrorKind::Validation, "mfa_factor_name_conflict",
                               "A factor with the friendly name \"" + name + "\" for this user already exists");
        }
        Poco::Nullable<std::string> name;
        if (friendlyName) name = *friendlyName;
        s << db_.sql("INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, 'unverified', ?, 0, ?, ?)"),
            use(fid), use(uid), use(name), use(t), use(sec), use(at), use(at), now;
        audit(s, "mfa_enrolled", caller.userId, caller.userId, client, {{"factor_id", id}});
    });
    return {{"id", id},
            {"type", "totp"},
            {"friendly_name", friendlyName.value_or("")},
            {"totp", {{"qr_code", qrCodeSvg(uri)}, {"secret", secret}, {"uri", uri}}}};
}

nlohmann::json AuthService::challengeFactor(const http::Caller& caller, const std::string& factorId, const ClientInfo& client) {
    const std::string id = db::newId();
    const long long expiresAt = unixNow() + kChallengeSeconds;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (!ownFactor(db_, s, caller.userId, factorId)) throw factorNotFound();
        std::string cid = id, fid = factorId, sid = caller.sessionId, ip = client.ip, at = db::nowTimestamp(),
                    expires = db::timestampAfter(kChallengeSeconds);
        s << db_.sql("INSERT INTO mfa_challenges (id, factor_id, session_id, ip, attempts, created_at, expires_at) VALUES (?, ?, ?, ?, 0, ?, ?)"),
            use(cid), use(fid), use(sid), use(ip), use(at), use(expires), now;
    });
    return {{"id", id}, {"type", "totp"}, {"expires_at", expiresAt}};
}

nlohmann::json AuthService::verifyFactor(const http::Caller& caller, const std::string& factorId, const nlohmann::json& body,
                                         const ClientInfo& client) {
    const std::string challengeId = body.contains("challenge_id") && body["challenge_id"].is_string() ? body["challenge_id"].get<std::string>() : "";
    const std::string code = body.contains("code") && body["code"].is_string() ? body["code"].get<std::string>() : "";
    if (challengeId.empty() || code.empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "challenge_id and code are required");
    if (!common::isUuid(challengeId))
        throw ApiError(ErrorKind::NotFound, "mfa_challenge_not_found", "Challenge not found");

    nlohmann::json result;
    std::optional<ApiError> failure;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto factor = ownFactor(db_, s, caller.userId, factorId);
        if (!factor) throw factorNotFound();
        Poco::Data::Statement select(s);
        std::string cid = challengeId, fid = factorId, sid = caller.sessionId;
        select << db_.sql("SELECT attempts, CAST(expires_at AS TEXT) AS expires_at, CAST(verified_at AS TEXT) AS verified_at "
                          "FROM mfa_challenges WHERE id = ? AND factor_id = ? AND session_id = ?"),
            use(cid), use(fid), use(sid);
        select.execute();
        Poco::Data::RecordSet rs(select);
        if (rs.rowCount() == 0) throw ApiError(ErrorKind::NotFound, "mfa_challenge_not_found", "Challenge not found");
        db::Row row(rs, 0);
        if (row.optTimestamp("verified_at") || row.timestamp("expires_at") <= db::nowTimestamp()) {
            failure = ApiError(ErrorKind::Validation, "mfa_challenge_expired",
                               "MFA challenge " + challengeId + " has expired, verify against another challenge or create a new challenge.");
            return;
        }
        if (row.int64("attempts") >= config_.mfaMaxAttempts) {
            failure = ApiError(ErrorKind::Validation, "mfa_verification_rejected",
                               "Too many incorrect codes for this challenge. Request a new one.");
            return;
        }
        std::string at = db::nowTimestamp();
        auto step = matchTotp(factor->secret, code, unixNow());
        bool accepted = false;
        if (step) {
            // A code is good once: the step must be newer than the last one this factor accepted.
            // The guarded UPDATE makes that hold for parallel requests too.
            Poco::Int64 stepValue = *step;
            Poco::Data::Statement spend(s);
            spend << db_.sql("UPDATE mfa_factors SET last_used_step = ?, status = 'verified', updated_at = ? WHERE id = ? AND last_used_step < ?"),
                use(stepValue), use(at), use(fid), use(stepValue);
            accepted = spend.execute() == 1;
        }
        if (!accepted) {
            s << db_.sql("UPDATE mfa_challenges SET attempts = attempts + 1 WHERE id = ?"), use(cid), now;
            audit(s, "mfa_verification_failed", caller.userId, caller.userId, client, {{"factor_id", factorId}});
            failure = ApiError(ErrorKind::Validation, "mfa_verification_failed", "Invalid TOTP code entered");
            return;
        }
        s << db_.sql("UPDATE mfa_challenges SET verified_at = ? WHERE id = ?"), use(at), use(cid), now;

        // The session steps up to aal2: its amr gains totp, its refresh tokens are replaced.
        std::string amrText;
        s << db_.sql("SELECT amr FROM auth_sessions WHERE id = ?"), use(sid), into(amrText), now;
        auto amr = nlohmann::json::parse(amrText, nullptr, false);
        if (!amr.is_array()) amr = nlohmann::json::array();
        amr.insert(amr.begin(), nlohmann::json::object({{"method", "totp"}, {"timestamp", unixNow()}}));
        std::string amrNew = amr.dump();
        s << db_.sql("UPDATE auth_sessions SET aal = 'aal2', amr = ?, factor_id = ?, updated_at = ?, refreshed_at = ? WHERE id = ?"),
            use(amrNew), use(fid), use(at), use(at), use(sid), now;
        s << db_.sql("UPDATE auth_refresh_tokens SET revoked = TRUE, updated_at = ? WHERE session_id = ? AND revoked = FALSE"), use(at),
            use(sid), now;
        std::string refreshToken = randomToken(), tokenId = db::newId(), hash = sha256Hex(refreshToken);
        s << db_.sql("INSERT INTO auth_refresh_tokens (id, session_id, token_hash, revoked, created_at, updated_at) VALUES (?, ?, ?, FALSE, ?, ?)"),
            use(tokenId), use(sid), use(hash), use(at), use(at), now;
        audit(s, factor->status == "verified" ? "mfa_verified" : "mfa_factor_activated", caller.userId, caller.userId, client,
              {{"factor_id", factorId}});
        result = tokenResponse(s, *findUserById(s, caller.userId), caller.sessionId, refreshToken);
    });
    if (failure) throw *failure;
    return result;
}

nlohmann::json AuthService::unenrollFactor(const http::Caller& caller, const std::string& factorId, const ClientInfo& client) {
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto factor = ownFactor(db_, s, caller.userId, factorId);
        if (!factor) throw factorNotFound();
        if (factor->status == "verified" && caller.aal != "aal2")
            throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "AAL2 required to unenroll verified factor");
        std::string fid = factorId;
        s << db_.sql("DELETE FROM mfa_factors WHERE id = ?"), use(fid), now;
        audit(s, "mfa_unenrolled", caller.userId, caller.userId, client, {{"factor_id", factorId}});
    });
    return {{"id", factorId}};
}

} // namespace storefront::auth

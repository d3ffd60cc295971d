#include "auth/factors.h"

#include "auth/notices.h"
#include "auth/second_factor.h"
#include "auth/secrets.h"
#include "auth/totp.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>
#include <stdexcept>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

constexpr int kChallengeSeconds = 300;
constexpr int kMaxFactors = 10;

ApiError factorNotFound() { return ApiError(ErrorKind::NotFound, "mfa_factor_not_found", "Factor not found"); }
ApiError challengeNotFound() { return ApiError(ErrorKind::NotFound, "mfa_challenge_not_found", "Challenge not found"); }

} // namespace

std::optional<OwnFactor> Factors::own(Poco::Data::Session& s, const std::string& userId, const std::string& factorId) {
    if (!common::isUuid(factorId)) return std::nullopt;
    return ctx_.factors.own(s, userId, factorId);
}

nlohmann::json Factors::enroll(const Principal& principal, const Enrolment& enrolment, const ClientInfo& client) {
    if (enrolment.factorType != "totp") throw ApiError(ErrorKind::BadRequest, "validation_failed", "factor_type must be totp");
    // A password alone (aal1) must not be enough to add a factor, which could then step up to aal2.
    if (principal.hasVerifiedFactor && principal.aal != "aal2")
        throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "AAL2 required to enroll a new factor");
    const auto& friendlyName = enrolment.friendlyName;
    const std::string secret = newTotpSecret();
    const std::string uri = otpauthUri(ctx_.settings.siteName, principal.email.empty() ? principal.userId : principal.email, secret);
    const std::string id = db::newId();
    ctx_.db.write([&](db::Tx& tx) {
        // Earlier unfinished enrolments are dropped: only the newest QR code can be completed.
        ctx_.factors.dropUnverified(tx, principal.userId);
        if (ctx_.factors.count(tx, principal.userId) >= kMaxFactors)
            throw ApiError(ErrorKind::Validation, "too_many_enrolled_mfa_factors",
                           "Maximum number of verified factors reached, unenroll to continue");
        if (friendlyName && ctx_.factors.nameTaken(tx, principal.userId, *friendlyName))
            throw ApiError(ErrorKind::Validation, "mfa_factor_name_conflict",
                           "A factor with the friendly name \"" + *friendlyName + "\" for this user already exists");
        ctx_.factors.insert(tx, id, principal.userId, friendlyName, enrolment.factorType, ctx_.factorSecrets.seal(id, secret));
        recordEvent(tx, "mfa_enrolled", principal.userId, actorOf(principal, client), {{"factor_id", id}});
    });
    return {{"id", id},
            {"type", "totp"},
            {"friendly_name", friendlyName.value_or("")},
            {"totp", {{"qr_code", qrCodeSvg(uri)}, {"secret", secret}, {"uri", uri}}}};
}

nlohmann::json Factors::challenge(const Principal& principal, const std::string& factorId, const ClientInfo& client) {
    const std::string id = db::newId();
    const long long expiresAt = ctx_.db.clock().epochSeconds() + kChallengeSeconds;
    ctx_.db.write([&](db::Tx& tx) {
        if (!own(tx.session(), principal.userId, factorId)) throw factorNotFound();
        // No new challenge while the account's wrong codes are at their limit (a new challenge
        // must not be a way round it).
        refuseWhileLockedOut(ctx_, tx, principal.userId);
        ctx_.factors.insertChallenge(tx, id, factorId, principal.sessionId, client.ip, ctx_.db.clock().timestampAfter(kChallengeSeconds));
    });
    return {{"id", id}, {"type", "totp"}, {"expires_at", expiresAt}};
}

std::string Factors::secretOf(db::Tx& tx, const OwnFactor& factor) {
    const auto secret = openSecret(ctx_, factor);
    if (!FactorSecrets::isSealed(factor.secret))
        ctx_.factors.replaceSecret(tx, factor.id, factor.secret, ctx_.factorSecrets.seal(factor.id, secret));
    return secret;
}

int Factors::protectStoredSecrets() {
    {
        auto session = ctx_.db.session();
        if (auto sealed = ctx_.factors.anySealed(session); sealed && !ctx_.factorSecrets.open(sealed->id, sealed->secret))
            throw std::runtime_error("the TOTP key does not open the stored two-factor secrets (factor " + sealed->id +
                                     "): STOREFRONT_TOTP_KEY (or the key file) is not the key they were sealed with");
    }
    int sealedCount = 0;
    for (;;) {
        std::vector<StoredSecret> batch;
        {
            auto session = ctx_.db.session();
            batch = ctx_.factors.plainSecrets(session, 200);
        }
        if (batch.empty()) break;
        ctx_.db.write([&](db::Tx& tx) {
            for (const auto& row : batch)
                if (ctx_.factors.replaceSecret(tx, row.id, row.secret, ctx_.factorSecrets.seal(row.id, row.secret))) ++sealedCount;
        });
    }
    if (sealedCount > 0) Poco::Logger::get("auth").information("sealed %d plain-text TOTP secret(s)", sealedCount);
    return sealedCount;
}

std::string Factors::stepUp(db::Tx& tx, const std::string& sessionId, const std::string& factorId, const char* method) {
    auto level = ctx_.sessions.levelOf(tx.session(), sessionId);
    auto amr = nlohmann::json::parse(level ? level->second : "[]", nullptr, false);
    if (!amr.is_array()) amr = nlohmann::json::array();
    amr.insert(amr.begin(), nlohmann::json::object({{"method", method}, {"timestamp", ctx_.db.clock().epochSeconds()}}));
    ctx_.sessions.stepUp(tx, sessionId, amr.dump(), factorId);
    const std::string refreshToken = randomToken();
    ctx_.sessions.insertRefreshToken(tx, sessionId, sha256Hex(refreshToken), std::nullopt);
    return refreshToken;
}

nlohmann::json Factors::verify(const Principal& principal, const std::string& factorId, const std::string& challengeId,
                               const std::string& code, const ClientInfo& client) {
    if (challengeId.empty() || code.empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "challenge_id and code are required");
    if (!common::isUuid(challengeId)) throw challengeNotFound();

    nlohmann::json result;
    std::optional<ApiError> failure; // answered after COMMIT, so a failed attempt still counts
    ctx_.db.write([&](db::Tx& tx) {
        // First, so parallel guesses at one account are checked and counted one at a time.
        refuseWhileLockedOut(ctx_, tx, principal.userId);
        auto factor = own(tx.session(), principal.userId, factorId);
        if (!factor) throw factorNotFound();
        auto row = ctx_.factors.challenge(tx, challengeId, factorId, principal.sessionId);
        if (!row) throw challengeNotFound();
        if (row->verifiedAt || row->expiresAt <= ctx_.db.clock().nowTimestamp()) {
            failure = ApiError(ErrorKind::Validation, "mfa_challenge_expired",
                               "MFA challenge " + challengeId + " has expired, verify against another challenge or create a new challenge.");
            return;
        }
        if (row->attempts >= ctx_.settings.mfaMaxAttempts) {
            failure = ApiError(ErrorKind::Validation, "mfa_verification_rejected", "Too many incorrect codes for this challenge. Request a new one.");
            return;
        }
        const auto actor = actorOf(principal, client);
        // A recovery code stands in for the authenticator's code once the factor is verified (an
        // enrolment is finished with the app's code only); it is spent like a TOTP step, and a
        // wrong one counts against the challenge like a wrong TOTP code.
        const auto recovery = factor->status == "verified" ? normalizeRecoveryCode(code) : std::nullopt;
        bool accepted = false;
        if (recovery) {
            accepted = ctx_.recoveryCodes.spend(tx, principal.userId, recoveryCodeHash(*recovery));
        } else {
            // A code is good once: the step must be newer than the last one this factor accepted.
            auto step = matchTotp(secretOf(tx, *factor), code, ctx_.db.clock().epochSeconds());
            accepted = step && ctx_.factors.spendStep(tx, factorId, *step);
        }
        if (!accepted) {
            ctx_.factors.countFailedAttempt(tx, challengeId);
            recordEvent(tx, "mfa_verification_failed", principal.userId, actor,
                        {{"factor_id", factorId}, {"method", recovery ? "recovery_code" : "totp"}});
            // Guesses at a factor the account relies on count against the account too; finishing
            // an enrolment checks a secret its own session was just shown.
            if (factor->status == "verified") countWrongCode(ctx_, tx, principal.userId, recovery ? "recovery_code" : "totp", actor);
            failure = ApiError(ErrorKind::Validation, "mfa_verification_failed", "Invalid TOTP code entered");
            return;
        }
        ctx_.factors.markChallengeVerified(tx, challengeId);
        const auto refreshToken = stepUp(tx, principal.sessionId, factorId, recovery ? "recovery_code" : "totp");
        const bool activated = factor->status != "verified";
        recordEvent(tx, recovery ? "mfa_recovery_code_used" : activated ? "mfa_factor_activated" : "mfa_verified", principal.userId,
                    actor, {{"factor_id", factorId}});
        if (activated) sendNotice(ctx_, tx, Notice::FactorAdded, principal.email, nameOf(tx, principal.userId, factorId));
        result = sessions_.tokenResponse(tx.session(), *ctx_.users.find(tx.session(), principal.userId), principal.sessionId,
                                         refreshToken);
    });
    if (failure) throw *failure;
    return result;
}

std::string Factors::nameOf(db::Tx& tx, const std::string& userId, const std::string& factorId) {
    for (const auto& f : ctx_.factors.list(tx.session(), userId))
        if (f.id == factorId && !f.friendlyName.empty()) return f.friendlyName;
    return "Authenticator app";
}

bool Factors::recentlyProved(Poco::Data::Session& s, const std::string& sessionId) {
    auto level = ctx_.sessions.levelOf(s, sessionId);
    auto amr = nlohmann::json::parse(level ? level->second : "[]", nullptr, false);
    if (!amr.is_array()) return false;
    const long long since = ctx_.db.clock().epochSeconds() - ctx_.settings.recentCodeSeconds;
    for (const auto& entry : amr) {
        if (!entry.is_object()) continue;
        const auto method = entry.value("method", std::string());
        const auto at = entry.contains("timestamp") && entry["timestamp"].is_number_integer() ? entry["timestamp"].get<long long>() : 0;
        if ((method == "totp" || method == "recovery_code") && at >= since) return true;
    }
    return false;
}

nlohmann::json Factors::unenroll(const Principal& principal, const std::string& factorId, const std::optional<std::string>& code,
                                 const ClientInfo& client) {
    const auto actor = actorOf(principal, client);
    // Every code sent counts, as guesses at the password do (the limiter keeps its own rows, so
    // it is asked before the transaction).
    if (code && !code->empty()) {
        auto limit = ctx_.limiter.hit("auth-reauth:" + principal.userId, ctx_.settings.signinLimitPerAccount,
                                      ctx_.settings.signinWindowSeconds);
        if (!limit.allowed) {
            ApiError e(ErrorKind::RateLimited, "over_request_rate_limit", "Too many attempts. Please wait and try again.");
            e.retryAfterSeconds = limit.retryAfterSeconds;
            throw e;
        }
    }
    std::optional<ApiError> failure; // answered after COMMIT, so the failed attempt stays in the audit log
    ctx_.db.write([&](db::Tx& tx) {
        auto factor = own(tx.session(), principal.userId, factorId);
        if (!factor) throw factorNotFound();
        const bool verified = factor->status == "verified";
        if (verified && principal.aal != "aal2")
            throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "AAL2 required to unenroll verified factor");
        // Removing a verified factor needs a current code: one sent with the request (an
        // authenticator's or a recovery code), or one this session entered a few minutes ago
        // (auth-js's unenroll, right after the step up, sends no body).
        if (verified && (!code || code->empty()) && !recentlyProved(tx.session(), principal.sessionId))
            throw ApiError::validation({{"code", "Enter a code from your authenticator app or a recovery code."}},
                                       "Confirm with a two-factor code to remove this authenticator.");
        if (verified && code && !code->empty()) {
            if (spendCode(ctx_, tx, principal.userId, *code, actor) == CodeKind::None) {
                recordEvent(tx, "mfa_verification_failed", principal.userId, actor, {{"factor_id", factorId}, {"reason", "unenroll"}});
                failure = ApiError(ErrorKind::Validation, "mfa_verification_failed", "Invalid TOTP code entered");
                return;
            }
        }
        const auto name = nameOf(tx, principal.userId, factorId);
        ctx_.factors.remove(tx, factorId);
        recordEvent(tx, "mfa_unenrolled", principal.userId, actor, {{"factor_id", factorId}});
        if (!verified) return; // an unfinished enrolment: nothing the owner relied on changed
        // With no verified factor left the recovery codes open nothing: they go with the last one.
        const auto left = ctx_.factors.list(tx.session(), principal.userId);
        if (std::none_of(left.begin(), left.end(), [](const FactorSummary& f) { return f.status == "verified"; }))
            ctx_.recoveryCodes.removeAllOf(tx, principal.userId);
        sendNotice(ctx_, tx, Notice::FactorRemoved, principal.email, name);
    });
    if (failure) throw *failure;
    return {{"id", factorId}};
}

} // namespace storefront::auth

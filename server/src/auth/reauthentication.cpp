#include "auth/reauthentication.h"

#include "auth/password.h"
#include "auth/second_factor.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace storefront::auth {

using http::ApiError;
using http::ErrorKind;

namespace {

bool isVerified(const FactorSummary& f) { return f.status == "verified" && f.factorType == "totp"; }

} // namespace

bool Reauthentication::hasVerifiedFactor(Poco::Data::Session& s, const std::string& userId) {
    const auto factors = ctx_.factors.list(s, userId);
    return std::any_of(factors.begin(), factors.end(), isVerified);
}

void Reauthentication::confirm(const std::string& userId, const std::optional<std::string>& password,
                               const std::optional<std::string>& code, const ClientInfo& client) {
    std::optional<UserRecord> user;
    std::vector<FactorSummary> factors;
    {
        auto s = ctx_.db.session();
        user = ctx_.users.find(s, userId);
        if (user) factors = ctx_.factors.list(s, userId);
    }
    if (!user) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    std::vector<FactorSummary> verified;
    std::copy_if(factors.begin(), factors.end(), std::back_inserter(verified), isVerified);

    // Every field's problem in one answer, before any hashing.
    std::map<std::string, std::string> missing;
    if (!password || password->empty()) missing["password"] = "Enter your current password.";
    if (!verified.empty() && (!code || code->empty()))
        missing["code"] = "Enter the 6-digit code from your authenticator app.";
    if (!missing.empty()) throw ApiError::validation(missing, "Confirm with your password" + std::string(verified.empty() ? "." : " and a code."));

    const auto& settings = ctx_.settings;
    auto limit = ctx_.limiter.hit("auth-reauth:" + userId, settings.signinLimitPerAccount, settings.signinWindowSeconds);
    if (!limit.allowed) {
        ApiError e(ErrorKind::RateLimited, "over_request_rate_limit", "Too many attempts. Please wait and try again.");
        e.retryAfterSeconds = limit.retryAfterSeconds;
        throw e;
    }

    const auto actor = actorOf(Principal{userId, "", user->email.value_or(""), "", false, false}, client);
    const bool passwordOk = user->encryptedPassword && password->size() <= kMaxPasswordBytes &&
                            ctx_.hasher.verify(*user->encryptedPassword, *password);
    if (!user->encryptedPassword) ctx_.hasher.verifyDummy(*password);
    if (!passwordOk) {
        ctx_.db.write([&](db::Tx& tx) { recordEvent(tx, "reauthentication_failed", userId, actor, {{"reason", "password"}}); });
        throw ApiError(ErrorKind::BadRequest, "invalid_credentials", "The password is not correct.");
    }
    if (verified.empty()) return;

    // A code is good once: a TOTP step newer than its factor's last, or an unused recovery code.
    bool accepted = false;
    ctx_.db.write([&](db::Tx& tx) { accepted = spendCode(ctx_, tx, userId, *code, actor) != CodeKind::None; });
    if (!accepted) {
        ctx_.db.write([&](db::Tx& tx) { recordEvent(tx, "reauthentication_failed", userId, actor, {{"reason", "code"}}); });
        throw ApiError(ErrorKind::BadRequest, "mfa_verification_failed", "Invalid TOTP code entered");
    }
}

} // namespace storefront::auth

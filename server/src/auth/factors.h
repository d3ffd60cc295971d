#pragma once
// TOTP factors: enrol, challenge, verify (the step up to aal2), unenrol.
#include "auth/context.h"
#include "auth/sessions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::auth {

struct Enrolment {
    std::string factorType; // totp
    std::optional<std::string> friendlyName;
};

class Factors {
public:
    Factors(Context& ctx, Sessions& sessions) : ctx_(ctx), sessions_(sessions) {}

    nlohmann::json enroll(const Principal& principal, const Enrolment& enrolment, const ClientInfo& client);
    nlohmann::json challenge(const Principal& principal, const std::string& factorId, const ClientInfo& client);
    nlohmann::json verify(const Principal& principal, const std::string& factorId, const std::string& challengeId,
                          const std::string& code, const ClientInfo& client);
    // Removes a factor. A verified one needs aal2 and a current code: `code` (the authenticator's
    // or a recovery code), or a code this session entered within Settings::recentCodeSeconds.
    // 422 validation_failed (fields.code) without one, 422 mfa_verification_failed when wrong.
    nlohmann::json unenroll(const Principal& principal, const std::string& factorId, const std::optional<std::string>& code,
                            const ClientInfo& client);

    // At start-up: throws std::runtime_error when the TOTP key does not open a stored secret (the
    // server must not start with the wrong key), then seals every secret still stored as plain
    // text. Returns how many it sealed.
    int protectStoredSecrets();

private:
    std::optional<OwnFactor> own(Poco::Data::Session& s, const std::string& userId, const std::string& factorId);
    // The factor's TOTP secret; a plain (pre-encryption) one is sealed in `tx`. 500 when it does
    // not open under the configured key.
    std::string secretOf(db::Tx& tx, const OwnFactor& factor);
    // The session steps up to aal2: its amr gains totp, its refresh tokens are replaced. Returns the new refresh token.
    // `method` is the amr entry: totp, or recovery_code when a recovery code stood in.
    std::string stepUp(db::Tx& tx, const std::string& sessionId, const std::string& factorId, const char* method);
    // The factor's friendly name, or "Authenticator app".
    std::string nameOf(db::Tx& tx, const std::string& userId, const std::string& factorId);
    // Whether the session entered a second-factor code within the last recentCodeSeconds.
    bool recentlyProved(Poco::Data::Session& s, const std::string& sessionId);

    Context& ctx_;
    Sessions& sessions_;
};

} // namespace storefront::auth

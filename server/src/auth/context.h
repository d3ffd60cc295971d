#pragma once
// What the accounts services share: their collaborators, the repositories, and the small types
// every service takes (the client, the calling principal). Built once by auth::Module.
#include "auth/factor_repository.h"
#include "auth/factor_secrets.h"
#include "auth/password.h"
#include "auth/recovery_code_repository.h"
#include "auth/session_repository.h"
#include "auth/settings.h"
#include "auth/signing_keys.h"
#include "auth/user_repository.h"
#include "audit/audit.h"
#include "db/database.h"
#include "db/rate_limiter.h"
#include "http/api_error.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::auth {

struct ClientInfo {
    std::string ip;
    std::string userAgent;
};

// The signed-in caller, as the services need it (routes build it from the verified token).
struct Principal {
    std::string userId;
    std::string sessionId;
    std::string email;
    std::string aal; // aal1 | aal2
    bool staffAdmin = false;
    bool hasVerifiedFactor = false;
    // The session began at an emailed link (amr otp, magiclink or recovery: GoTrue's
    // Session.IsRecovery()): a password change there needs no current password.
    bool linkSession = false;
};

struct Context {
    db::Database& db;
    const Settings& settings;
    std::string publicUrl;
    SigningKeys& keys;
    PasswordHasher& hasher;
    db::RateLimiter& limiter;
    mail::Outbox& outbox;
    const FactorSecrets& factorSecrets;
    UserRepository users{};
    SessionRepository sessions{};
    FactorRepository factors{};
    RecoveryCodeRepository recoveryCodes{};
};

// Lower-cases and trims an email address for lookups and storage.
std::string normalizeEmail(const std::string& email);
// Seconds since the epoch of an ISO-8601 UTC timestamp as Clock::nowTimestamp() writes it.
long long unixSeconds(const std::string& isoTimestamp);

// An email address from a request: normalised; 400 validation_failed when missing, 400
// email_address_invalid when malformed (GoTrue's codes).
std::string checkedEmail(const std::optional<std::string>& email);
// A full_name in user metadata (sign-up data, a change, an admin's user_metadata, an invite):
// absent, null, or one line of text (common::isOneLine) of at most 100 characters; else 422
// validation_failed naming it.
void checkFullName(const nlohmann::json& userMetadata);
// A new password: 400 when missing, 422 weak_password (with reasons) or when too long.
std::string checkedNewPassword(const Settings& settings, const std::optional<std::string>& password);

// 422 email_exists: another user has the address.
http::ApiError emailTaken();

// Who did it, for the audit log: the principal (with the client address), or nobody signed in.
audit::Actor actorOf(const Principal& principal, const ClientInfo& client);
audit::Actor anonymousActor(const ClientInfo& client);
// An account event in the audit log (target: the user). Never put a secret in `detail`.
void recordEvent(db::Tx& tx, const std::string& event, const std::optional<std::string>& userId, const audit::Actor& actor,
                 const nlohmann::json& detail = nlohmann::json::object());

} // namespace storefront::auth

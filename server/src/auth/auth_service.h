#pragma once
// The GoTrue-compatible accounts service behind /auth/v1: users, password sign-in, sessions and
// refresh-token rotation, one-time email links, TOTP factors, the staff admin API, and the check
// that turns a bearer token into an http::Caller for every other route.
//
// The implementation is split by concern: accounts.cpp (sign-up, sign-in, the user, links),
// sessions.cpp (issuing, refreshing, ending sessions, authenticating callers), factors.cpp (TOTP),
// admin.cpp (the admin API and the shell command), user_json.cpp (GoTrue's user object).
#include "auth/settings.h"
#include "auth/password.h"
#include "auth/signing_keys.h"
#include "db/database.h"
#include "db/rate_limiter.h"
#include "http/request.h"
#include "http/router.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace storefront::auth {

struct ClientInfo {
    std::string ip;
    std::string userAgent;
};

// A stored user, as read from users.
struct UserRecord {
    std::string id;
    std::optional<std::string> email;
    std::optional<std::string> phone;
    std::optional<std::string> encryptedPassword;
    std::optional<std::string> emailConfirmedAt;
    std::optional<std::string> confirmationSentAt;
    std::optional<std::string> recoverySentAt;
    std::optional<std::string> invitedAt;
    std::optional<std::string> emailChange;
    std::optional<std::string> emailChangeSentAt;
    std::optional<std::string> bannedUntil;
    std::optional<std::string> lastSignInAt;
    nlohmann::json appMetadata = nlohmann::json::object();
    nlohmann::json userMetadata = nlohmann::json::object();
    std::string createdAt;
    std::string updatedAt;
    bool banned() const;
};

struct UserPage {
    nlohmann::json users;
    Poco::Int64 total = 0;
};

// The link a one-time token becomes: what the email carries and generate_link returns.
struct ActionLink {
    std::string url;
    std::string token;
    std::string type;
    std::string redirectTo;
};

class AuthService {
public:
    AuthService(db::Database& db, const auth::Settings& config, std::string publicUrl, SigningKeys& keys,
                PasswordHasher& hasher, db::RateLimiter& limiter, mail::Outbox& outbox);

    // --- accounts.cpp
    nlohmann::json signUp(const nlohmann::json& body, const std::optional<std::string>& redirectTo, const ClientInfo& client);
    nlohmann::json signInWithPassword(const nlohmann::json& body, const ClientInfo& client);
    nlohmann::json user(const http::Caller& caller);
    nlohmann::json updateUser(const http::Caller& caller, const nlohmann::json& body, const std::optional<std::string>& redirectTo,
                              const ClientInfo& client);
    void recover(const nlohmann::json& body, const std::optional<std::string>& redirectTo, const ClientInfo& client);
    // Spends a link token: a token response (a new session) for the user it belongs to.
    nlohmann::json verify(const std::string& type, const std::string& token, const ClientInfo& client);
    // Where a link may send the browser afterwards: redirect_to when it is on our origin, else home.
    std::string safeRedirect(const std::optional<std::string>& redirectTo) const;

    // --- sessions.cpp
    nlohmann::json refresh(const nlohmann::json& body, const ClientInfo& client);
    void logout(const http::Caller& caller, const std::string& scope);
    // Checks a bearer token against its live session: the caller, or ApiError (401 no_authorization,
    // 403 bad_jwt / session_not_found / user_banned).
    http::Caller authenticate(const std::string& authorizationHeader);
    // The http::Router authoriser: decides each route's Access for the request.
    void authorize(http::Request& request, http::Access access);
    nlohmann::json jwks() const { return keys_.jwks(); }
    // Deletes sessions past their limits, spent or expired links and challenges (hourly job).
    void pruneExpired();

    // --- factors.cpp
    nlohmann::json enrollFactor(const http::Caller& caller, const nlohmann::json& body, const ClientInfo& client);
    nlohmann::json challengeFactor(const http::Caller& caller, const std::string& factorId, const ClientInfo& client);
    nlohmann::json verifyFactor(const http::Caller& caller, const std::string& factorId, const nlohmann::json& body,
                                const ClientInfo& client);
    nlohmann::json unenrollFactor(const http::Caller& caller, const std::string& factorId, const ClientInfo& client);

    // --- admin.cpp
    nlohmann::json adminCreateUser(const http::Caller& admin, const nlohmann::json& body, const ClientInfo& client);
    UserPage adminListUsers(int page, int perPage);
    nlohmann::json adminGetUser(const std::string& id);
    nlohmann::json adminUpdateUser(const http::Caller& admin, const std::string& id, const nlohmann::json& body,
                                   const ClientInfo& client);
    nlohmann::json adminDeleteUser(const http::Caller& admin, const std::string& id, bool soft, const ClientInfo& client);
    nlohmann::json adminListFactors(const std::string& userId);
    nlohmann::json adminDeleteFactor(const http::Caller& admin, const std::string& userId, const std::string& factorId,
                                     const ClientInfo& client);
    nlohmann::json invite(const http::Caller& admin, const nlohmann::json& body, const std::optional<std::string>& redirectTo,
                          const ClientInfo& client);
    nlohmann::json generateLink(const http::Caller& admin, const nlohmann::json& body, const ClientInfo& client);

    // The shell command `storefront users create`: a confirmed user, optionally an admin. Without a
    // password the result carries a one-time link (an invite) that lets the person set one.
    struct CreatedUser {
        std::string id;
        std::optional<std::string> setPasswordLink;
    };
    CreatedUser createUserFromShell(const std::string& email, const std::optional<std::string>& password, bool admin);

private:
    // user_json.cpp
    std::optional<UserRecord> findUser(Poco::Data::Session& s, const std::string& column, const std::string& value);
    std::optional<UserRecord> findUserById(Poco::Data::Session& s, const std::string& id);
    std::optional<UserRecord> findUserByEmail(Poco::Data::Session& s, const std::string& email);
    nlohmann::json userJson(Poco::Data::Session& s, const UserRecord& user);
    nlohmann::json factorsJson(Poco::Data::Session& s, const std::string& userId);
    std::vector<std::string> roles(Poco::Data::Session& s, const std::string& userId);

    // accounts.cpp
    std::string insertUser(Poco::Data::Session& s, const std::string& email, const std::optional<std::string>& passwordHash,
                           const nlohmann::json& userMetadata, bool confirmed, const std::optional<std::string>& invitedAt);
    ActionLink createLink(Poco::Data::Session& s, const std::string& userId, const std::string& type, const std::string& sendTo,
                          const std::optional<std::string>& redirectTo);
    void sendLink(db::Tx& tx, const ActionLink& link, const std::string& to);
    std::string checkedNewPassword(const nlohmann::json& value);
    void throttleEmail(const std::string& email, const ClientInfo& client);

    // sessions.cpp
    struct Issued {
        std::string sessionId;
        std::string refreshToken;
    };
    Issued createSession(Poco::Data::Session& s, const std::string& userId, const std::string& aal, const nlohmann::json& amr,
                         const ClientInfo& client);
    nlohmann::json tokenResponse(Poco::Data::Session& s, const UserRecord& user, const std::string& sessionId,
                                 const std::string& refreshToken);
    std::string accessToken(const UserRecord& user, const std::vector<std::string>& roles, const std::string& sessionId,
                            const std::string& aal, const nlohmann::json& amr, long long now);
    nlohmann::json signInNewSession(Poco::Data::Session& s, const UserRecord& user, const std::string& method,
                                    const ClientInfo& client);
    void endSessions(Poco::Data::Session& s, const std::string& userId, const std::optional<std::string>& except);

    // audit (sessions.cpp): never pass a secret in `detail`.
    void audit(Poco::Data::Session& s, const std::string& event, const std::optional<std::string>& userId,
               const std::optional<std::string>& actorId, const ClientInfo& client, const nlohmann::json& detail = nlohmann::json::object());

    db::Database& db_;
    const auth::Settings& config_;
    std::string publicUrl_;
    SigningKeys& keys_;
    PasswordHasher& hasher_;
    db::RateLimiter& limiter_;
    mail::Outbox& outbox_;
};

// Lower-cases and trims an email address for lookups and storage.
std::string normalizeEmail(const std::string& email);
// Current Unix time in seconds.
long long unixNow();
// Seconds since the epoch of an ISO-8601 UTC timestamp as db::nowTimestamp() writes it.
long long unixSeconds(const std::string& isoTimestamp);

} // namespace storefront::auth

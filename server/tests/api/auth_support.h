#pragma once
// Helpers for the /auth/v1 API tests: client addresses, users, sessions, TOTP factors, staff admins,
// the links in account emails, and SQL for arranging and checking rows. Failures throw
// std::runtime_error (gtest reports it as a failure of the test that called).
#include "api/harness.h"

#include <cstdint>
#include <string>
#include <vector>

namespace testing_support {

inline const std::string kPublicUrl = "https://shop.signalcraft.test";

// A client address of its own, sent as X-Forwarded-For (the harness trusts loopback as a proxy),
// so each test's rate-limit buckets are its own.
std::string newClientIp();
// Headers speaking as `ip`, with a bearer token when one is given.
Headers as(const std::string& ip, const std::string& accessToken = "");

// A JWT's payload and header, decoded without verification.
nlohmann::json jwtClaims(const std::string& jwt);
nlohmann::json jwtHeader(const std::string& jwt);

// SQL with `?` placeholders and text parameters, on env().db.
std::int64_t countRows(const std::string& sql, const std::vector<std::string>& params = {});
void execSql(const std::string& sql, const std::vector<std::string>& params = {});
// The first column of every row, as text (select ids as CAST(... AS TEXT)).
std::vector<std::string> textColumn(const std::string& sql, const std::vector<std::string>& params = {});
std::int64_t usersCount();

struct Account {
    std::string id, email, password;
};
// A new address at example.nz with `prefix`.
std::string newEmail(const std::string& prefix = "user");
// A user with a password, made directly in the database (confirmed unless told otherwise).
Account createUser(const std::string& prefix = "user", bool confirmed = true);
void grantAdmin(const std::string& userId);

// A signed-in session as the client at `ip`.
struct Session {
    std::string ip, accessToken, refreshToken, userId, sessionId;
    Headers headers() const { return as(ip, accessToken); }
    // Takes the tokens of a token response (sign-in, refresh, factor verify).
    void take(const nlohmann::json& tokenResponse);
};
HttpResult signInRequest(const std::string& email, const std::string& password, const std::string& ip);
Session signIn(const Account& account, const std::string& ip);
HttpResult refreshRequest(const std::string& refreshToken, const std::string& ip);
HttpResult userRequest(const Session& session);

// TOTP, on the wall clock the server uses.
std::int64_t totpStepNow();
// Sleeps until at least `marginSeconds` remain in the current 30-second step, for tests whose
// codes must not straddle a step change.
void awayFromStepBoundary(int marginSeconds = 4);
// A six-digit code matching none of the steps around now.
std::string wrongCode(const std::string& secret);

struct Factor {
    std::string id, secret;
    std::int64_t lastStep = 0; // the newest step this factor accepted
};
HttpResult enrolRequest(const Session& session, const nlohmann::json& body = {{"factor_type", "totp"}});
// An unverified TOTP factor.
Factor enrolFactor(const Session& session);
HttpResult challengeRequest(const Session& session, const std::string& factorId);
std::string challenge(const Session& session, const std::string& factorId);
HttpResult verifyRequest(const Session& session, const std::string& factorId, const std::string& challengeId,
                         const std::string& code);
// The code of the first step the factor has not accepted yet (waiting for it when needed).
std::string nextCode(Factor& factor);
// Challenge and verify with the next code: the session steps up to aal2 and takes the new tokens.
void stepUp(Session& session, Factor& factor);
// Enrol and verify a factor in `session`, which ends at aal2.
Factor enrolVerifiedFactor(Session& session);

// A staff admin (user_roles) with a verified factor, signed in at aal2.
struct StaffAdmin {
    Account account;
    Session session;
    Factor factor;
};
StaffAdmin createStaffAdmin(const std::string& ip);

// Delivered mail to `email` (through the fake relay), bodies decoded from quoted-printable.
std::vector<std::string> mailTo(const std::string& email);
// The verify links (type `type`) in mail delivered to `email`, oldest first.
std::vector<std::string> linksTo(const std::string& email, const std::string& type);
// Waits until `count` such links have been delivered and returns the newest.
std::string waitForLink(const std::string& email, const std::string& type, std::size_t count = 1);
// A query parameter of a link (decoded), and the token parameter of a verify link.
std::string linkParam(const std::string& link, const std::string& name);
std::string tokenOf(const std::string& link);
// Path and query of an absolute URL, to request it from the test server.
std::string pathOf(const std::string& url);
// Follows a verify link (GET, no redirect following): a 303 whose Location carries the outcome.
HttpResult followLink(const std::string& link, const std::string& ip);
// Location of a redirect, split: before '#', and the decoded fragment parameters.
struct Redirect {
    std::string target;
    std::map<std::string, std::string> fragment;
};
Redirect redirectOf(const HttpResult& response);

} // namespace testing_support

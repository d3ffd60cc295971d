// Password sign-in: the token response, one answer for every wrong credential, the throttles per
// account and per client address, and the audit log.
#include "api/auth_support.h"

#include "auth/password.h"

#include <Poco/String.h>
#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

using namespace testing_support;

TEST(AuthSignIn, ACorrectPasswordGivesATokenResponse) {
    const auto ip = newClientIp();
    auto account = createUser("signin");
    auto r = signInRequest(account.email, account.password, ip);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["token_type"], "bearer");
    EXPECT_EQ(j["expires_in"], 3600);
    EXPECT_NEAR(j["expires_at"].get<double>(), static_cast<double>(Poco::Timestamp().epochTime() + 3600), 5);
    EXPECT_EQ(j["refresh_token"].get<std::string>().size(), 32u);
    EXPECT_EQ(j["user"]["id"], account.id);
    EXPECT_TRUE(j["user"]["last_sign_in_at"].is_string());
    auto claims = jwtClaims(j["access_token"]);
    EXPECT_EQ(claims["sub"], account.id);
    EXPECT_EQ(claims["email"], account.email);
    EXPECT_EQ(claims["aud"], "authenticated");
    EXPECT_EQ(claims["role"], "authenticated");
    EXPECT_EQ(claims["iss"], kPublicUrl + "/auth/v1");
    EXPECT_EQ(claims["aal"], "aal1");
    EXPECT_EQ(claims["amr"][0]["method"], "password");
    EXPECT_EQ(claims["exp"].get<long long>() - claims["iat"].get<long long>(), 3600);
    EXPECT_EQ(claims["app_metadata"]["roles"], nlohmann::json::array());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ? AND user_id = ? AND aal = 'aal1' AND ip = ?",
                        {claims["session_id"], account.id, ip}),
              1);
    // The email is matched without regard to case or surrounding space.
    EXPECT_EQ(signInRequest("  " + Poco::toUpper(account.email) + " ", account.password, ip).status, 200);
}

// The body without its request_id, which every answer has its own of.
nlohmann::json bodyWithoutRequestId(const testing_support::HttpResult& result) {
    auto body = result.json();
    EXPECT_TRUE(body.contains("request_id")) << result.body;
    body.erase("request_id");
    return body;
}

TEST(AuthSignIn, WrongPasswordAndUnknownEmailGiveTheSameAnswer) {
    const auto ip = newClientIp();
    auto account = createUser("same");
    auto wrong = signInRequest(account.email, account.password + "x", ip);
    auto unknown = signInRequest(newEmail("ghost"), account.password, ip);
    ASSERT_EQ(wrong.status, 400);
    EXPECT_EQ(wrong.status, unknown.status);
    EXPECT_EQ(bodyWithoutRequestId(wrong), bodyWithoutRequestId(unknown));
    EXPECT_EQ(wrong.json()["code"], "invalid_credentials");
    EXPECT_EQ(wrong.header("x-sb-error-code"), unknown.header("x-sb-error-code"));
    // A user without a password yet (invited) answers the same as well.
    execSql("UPDATE users SET encrypted_password = NULL WHERE id = ?", {account.id});
    auto noPassword = signInRequest(account.email, account.password, ip);
    EXPECT_EQ(noPassword.status, 400);
    EXPECT_EQ(bodyWithoutRequestId(noPassword), bodyWithoutRequestId(unknown));
}

TEST(AuthSignIn, MissingFieldsAndOtherGrantsAre400) {
    const auto ip = newClientIp();
    EXPECT_EQ(postJson("/auth/v1/token?grant_type=password", {{"email", newEmail("x")}}, as(ip)).status, 400);
    EXPECT_EQ(postJson("/auth/v1/token?grant_type=password", {{"password", "Kea-nest-2024"}}, as(ip)).status, 400);
    EXPECT_EQ(postJson("/auth/v1/token?grant_type=password", {{"email", 1}, {"password", 2}}, as(ip)).status, 400);
    auto grant = postJson("/auth/v1/token?grant_type=id_token", nlohmann::json::object(), as(ip));
    EXPECT_EQ(grant.status, 400);
    EXPECT_EQ(grant.json()["code"], "unsupported_grant_type");
    auto tooLong = signInRequest(newEmail("long"), std::string(300, 'k'), ip);
    EXPECT_EQ(tooLong.status, 400);
    EXPECT_EQ(tooLong.json()["code"], "invalid_credentials");
}

TEST(AuthSignIn, TheEleventhAttemptOnOneAccountIs429EvenWithTheRightPassword) {
    auto account = createUser("throttle");
    for (int i = 0; i < 10; ++i) {
        // From different addresses: the limit follows the account.
        auto r = signInRequest(account.email, "Kea-wrong-" + std::to_string(i), newClientIp());
        ASSERT_EQ(r.status, 400) << i << ": " << r.body;
    }
    auto r = signInRequest(account.email, account.password, newClientIp());
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_EQ(r.json()["code"], "over_request_rate_limit");
    const int retryAfter = std::stoi(r.header("retry-after"));
    EXPECT_GE(retryAfter, 1);
    EXPECT_LE(retryAfter, 86400);
    // Another account is not affected.
    auto other = createUser("neighbour");
    EXPECT_EQ(signInRequest(other.email, other.password, newClientIp()).status, 200);
}

TEST(AuthSignIn, TheSixtyFirstAttemptFromOneAddressIs429) {
    const auto ip = newClientIp();
    for (int i = 0; i < 60; ++i) {
        auto r = signInRequest(newEmail("spray"), "Kea-guess-2024", ip);
        ASSERT_EQ(r.status, 400) << i << ": " << r.body;
    }
    auto account = createUser("victim");
    auto r = signInRequest(account.email, account.password, ip);
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_EQ(r.json()["code"], "over_request_rate_limit");
    EXPECT_FALSE(r.header("retry-after").empty());
    EXPECT_EQ(signInRequest(account.email, account.password, newClientIp()).status, 200); // per address
}

TEST(AuthSignIn, AttemptsAreAuditedWithoutSecrets) {
    const auto ip = newClientIp();
    auto account = createUser("audit");
    const std::string wrongPassword = "Kea-wrong-" + storefront::db::newId().substr(0, 8);
    ASSERT_EQ(signInRequest(account.email, wrongPassword, ip).status, 400);
    const auto ghost = newEmail("ghost");
    ASSERT_EQ(signInRequest(ghost, wrongPassword, ip).status, 400);
    auto session = signIn(account, ip);
    auto refreshed = refreshRequest(session.refreshToken, ip);
    ASSERT_EQ(refreshed.status, 200);

    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'login' AND user_id = ? AND ip = ?", {account.id, ip}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'login_failed' AND user_id = ? AND ip = ?", {account.id, ip}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'login_failed' AND user_id IS NULL AND ip = ?", {ip}), 1);

    const std::vector<std::string> secrets = {account.password, wrongPassword, session.accessToken, session.refreshToken,
                                              refreshed.json()["refresh_token"], ghost};
    for (const auto& row : textColumn("SELECT event || ' ' || COALESCE(ip, '') || ' ' || detail FROM auth_audit_log")) {
        for (const auto& secret : secrets) EXPECT_EQ(row.find(secret), std::string::npos) << row;
    }
    // Nor are the stored tokens the tokens.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_refresh_tokens WHERE token_hash = ?", {session.refreshToken}), 0);
}

TEST(AuthSignIn, AnOldHashIsUpgradedAtSignIn) {
    const auto ip = newClientIp();
    auto account = createUser("rehash");
    storefront::auth::PasswordHasher older({2, 8192}, 1, 1);
    execSql("UPDATE users SET encrypted_password = ? WHERE id = ?", {older.hash(account.password), account.id});
    ASSERT_EQ(signInRequest(account.email, account.password, ip).status, 200);
    auto stored = textColumn("SELECT encrypted_password FROM users WHERE id = ?", {account.id});
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_TRUE(stored[0].starts_with("$argon2id$v=19$m=8192,t=1,p=1$")) << stored[0];
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);
}

TEST(AuthSignIn, ABannedUserCannotSignIn) {
    const auto ip = newClientIp();
    auto account = createUser("banned");
    execSql("UPDATE users SET banned_until = ? WHERE id = ?", {testClock().timestampAfter(3600), account.id});
    auto r = signInRequest(account.email, account.password, ip);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json()["code"], "user_banned");
}

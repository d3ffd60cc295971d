// GET/PUT /auth/v1/user and logout: which bearer tokens are accepted, what ending sessions does at
// once, and the rules for changing the password, email and profile data.
#include "api/auth_support.h"

#include "auth/secrets.h"
#include "auth/signing_keys.h"

#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

using namespace testing_support;

namespace {

// The three parts of a JWT with the payload replaced (the signature no longer matches).
std::string withClaims(const std::string& jwt, const nlohmann::json& claims) {
    auto first = jwt.find('.'), second = jwt.rfind('.');
    return jwt.substr(0, first) + "." + storefront::auth::base64Url(claims.dump()) + jwt.substr(second);
}

HttpResult logout(const Session& session, const std::string& scope) {
    return http(env().port, "POST", "/auth/v1/logout" + (scope.empty() ? "" : "?scope=" + scope), "", session.headers());
}

HttpResult recoverPassword(const std::string& email, const std::string& ip) {
    return postJson("/auth/v1/recover", {{"email", email}}, as(ip));
}

} // namespace

TEST(AuthUser, ReturnsTheSignedInUser) {
    const auto ip = newClientIp();
    auto account = createUser("me");
    auto session = signIn(account, ip);
    auto r = userRequest(session);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["id"], account.id);
    EXPECT_EQ(j["email"], account.email);
    EXPECT_EQ(j["aud"], "authenticated");
    EXPECT_TRUE(j["email_confirmed_at"].is_string());
    EXPECT_EQ(j["app_metadata"]["provider"], "email");
    EXPECT_EQ(j["identities"][0]["provider"], "email");
    EXPECT_FALSE(j.contains("encrypted_password"));
    EXPECT_EQ(r.body.find("argon2"), std::string::npos);
}

TEST(AuthUser, WithoutABearerTokenIs401) {
    const auto ip = newClientIp();
    for (const auto& header : {std::string(), std::string("Bearer"), std::string("Bearer "), std::string("Basic a2V5OnNlY3JldA==")}) {
        auto headers = as(ip);
        if (!header.empty()) headers["Authorization"] = header;
        auto r = get("/auth/v1/user", headers);
        EXPECT_EQ(r.status, 401) << "'" << header << "': " << r.body;
        EXPECT_EQ(r.json()["code"], "no_authorization");
    }
}

TEST(AuthUser, GarbageExpiredOrTamperedTokensAre403BadJwt) {
    const auto ip = newClientIp();
    auto account = createUser("jwt");
    auto session = signIn(account, ip);
    auto claims = jwtClaims(session.accessToken);
    storefront::auth::SigningKeys keys(*env().db); // the server's keys, from the database
    const long long nowSeconds = Poco::Timestamp().epochTime();

    auto expiredClaims = claims;
    expiredClaims["iat"] = nowSeconds - 7200;
    expiredClaims["exp"] = nowSeconds - 10;
    auto noSession = claims;
    noSession.erase("session_id");
    auto noExpiry = claims;
    noExpiry.erase("exp");
    auto otherUser = claims;
    otherUser["sub"] = createUser("victim").id;
    const std::string header = session.accessToken.substr(0, session.accessToken.find('.'));
    // A character inside the signature (the last one also carries unused padding bits).
    auto signature = session.accessToken;
    auto& inSignature = signature[signature.rfind('.') + 20];
    inSignature = inSignature == 'A' ? 'B' : 'A';
    const std::string noneAlg = storefront::auth::base64Url(R"({"alg":"none","typ":"JWT"})") + "." +
                                storefront::auth::base64Url(claims.dump()) + ".";
    const std::string hs256 = storefront::auth::base64Url(R"({"alg":"HS256","typ":"JWT"})") +
                              session.accessToken.substr(session.accessToken.find('.'));

    const std::vector<std::pair<std::string, std::string>> tokens = {
        {"garbage", "garbage"},
        {"three garbage parts", "a.b.c"},
        {"expired", keys.sign(expiredClaims)},
        {"no expiry", keys.sign(noExpiry)},
        {"no session", keys.sign(noSession)},
        {"payload swapped", withClaims(session.accessToken, otherUser)},
        {"signature changed", signature},
        {"alg none", noneAlg},
        {"alg HS256", hs256},
    };
    for (const auto& [name, token] : tokens) {
        auto r = get("/auth/v1/user", as(ip, token));
        EXPECT_EQ(r.status, 403) << name << ": " << r.body;
        EXPECT_EQ(r.json()["code"], "bad_jwt") << name;
    }
    // A validly signed token whose session does not exist.
    auto unknownSession = claims;
    unknownSession["session_id"] = storefront::db::newId();
    auto r = get("/auth/v1/user", as(ip, keys.sign(unknownSession)));
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(r.json()["code"], "session_not_found");
    // A session of someone else named in an otherwise valid token.
    auto mixed = otherUser;
    EXPECT_EQ(get("/auth/v1/user", as(ip, keys.sign(mixed))).json()["code"], "session_not_found");
    EXPECT_EQ(userRequest(session).status, 200);
}

TEST(AuthUser, LogoutLocalEndsOnlyThisSession) {
    const auto ip = newClientIp();
    auto account = createUser("local");
    auto a = signIn(account, ip), b = signIn(account, ip);
    auto r = logout(a, "local");
    EXPECT_EQ(r.status, 204) << r.body;
    auto after = userRequest(a);
    EXPECT_EQ(after.status, 403);
    EXPECT_EQ(after.json()["code"], "session_not_found");
    EXPECT_EQ(refreshRequest(a.refreshToken, ip).status, 400);
    EXPECT_EQ(userRequest(b).status, 200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'logout' AND user_id = ?", {account.id}), 1);
}

TEST(AuthUser, LogoutOthersKeepsOnlyThisSession) {
    const auto ip = newClientIp();
    auto account = createUser("others");
    auto a = signIn(account, ip), b = signIn(account, ip), c = signIn(account, ip);
    EXPECT_EQ(logout(a, "others").status, 204);
    EXPECT_EQ(userRequest(a).status, 200);
    EXPECT_EQ(userRequest(b).json()["code"], "session_not_found");
    EXPECT_EQ(userRequest(c).json()["code"], "session_not_found");
    EXPECT_EQ(refreshRequest(b.refreshToken, ip).status, 400);
    EXPECT_EQ(refreshRequest(a.refreshToken, ip).status, 200);
}

TEST(AuthUser, LogoutGlobalIsTheDefaultAndEndsEverySessionOfTheUserOnly) {
    const auto ip = newClientIp();
    auto account = createUser("global");
    auto a = signIn(account, ip), b = signIn(account, ip);
    auto bystander = signIn(createUser("bystander"), ip);
    EXPECT_EQ(logout(a, "").status, 204);
    EXPECT_EQ(userRequest(a).json()["code"], "session_not_found");
    EXPECT_EQ(userRequest(b).json()["code"], "session_not_found");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE user_id = ?", {account.id}), 0);
    EXPECT_EQ(userRequest(bystander).status, 200);
    // Signing out again with the dead token is refused, and an unknown scope is a 400.
    EXPECT_EQ(logout(a, "global").status, 403);
    auto fresh = signIn(account, ip);
    EXPECT_EQ(logout(fresh, "everywhere").status, 400);
    EXPECT_EQ(userRequest(fresh).status, 200);
}

TEST(AuthUser, ChangingThePasswordEndsOtherSessionsAndUnusedRecoveryLinks) {
    const auto ip = newClientIp();
    auto account = createUser("change");
    auto a = signIn(account, ip), b = signIn(account, ip);
    ASSERT_EQ(recoverPassword(account.email, ip).status, 200);
    const auto recoveryLink = waitForLink(account.email, "recovery");

    const std::string newPassword = "Tui-song-" + storefront::db::newId().substr(0, 8);
    auto r = putJson("/auth/v1/user", {{"password", newPassword}, {"current_password", account.password}}, a.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["id"], account.id);
    EXPECT_EQ(userRequest(a).status, 200);
    EXPECT_EQ(refreshRequest(a.refreshToken, ip).status, 200);
    EXPECT_EQ(userRequest(b).json()["code"], "session_not_found");
    EXPECT_EQ(refreshRequest(b.refreshToken, ip).status, 400);
    EXPECT_EQ(redirectOf(followLink(recoveryLink, ip)).fragment["error_code"], "otp_expired");
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 400);
    EXPECT_EQ(signInRequest(account.email, newPassword, ip).status, 200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'password_changed' AND user_id = ?", {account.id}), 1);
}

TEST(AuthUser, TheSamePasswordOrAWeakOneIs422) {
    const auto ip = newClientIp();
    auto account = createUser("samepw");
    auto session = signIn(account, ip);
    auto same = putJson("/auth/v1/user", {{"password", account.password}, {"current_password", account.password}}, session.headers());
    EXPECT_EQ(same.status, 422) << same.body;
    EXPECT_EQ(same.json()["code"], "same_password");
    auto weak = putJson("/auth/v1/user", {{"password", "qwerty"}}, session.headers());
    EXPECT_EQ(weak.status, 422);
    EXPECT_EQ(weak.json()["code"], "weak_password");
    EXPECT_EQ(weak.json()["weak_password"]["reasons"], nlohmann::json::array({"pwned"}));
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);
}

TEST(AuthUser, WithAVerifiedFactorChangingThePasswordNeedsAal2) {
    const auto ip = newClientIp();
    auto account = createUser("aalpw");
    auto strong = signIn(account, ip);
    enrolVerifiedFactor(strong);
    auto weak = signIn(account, ip); // a password-only session: aal1
    ASSERT_EQ(jwtClaims(weak.accessToken)["aal"], "aal1");
    EXPECT_EQ(userRequest(weak).status, 200); // reading is fine at aal1

    const std::string newPassword = "Tui-song-" + storefront::db::newId().substr(0, 8);
    auto refused = putJson("/auth/v1/user", {{"password", newPassword}}, weak.headers());
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(refused.json()["code"], "insufficient_aal");
    auto email = putJson("/auth/v1/user", {{"email", newEmail("aalmail")}}, weak.headers());
    EXPECT_EQ(email.status, 403);
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);

    auto allowed = putJson("/auth/v1/user", {{"password", newPassword}, {"current_password", account.password}}, strong.headers());
    EXPECT_EQ(allowed.status, 200) << allowed.body;
}

TEST(AuthUser, DataIsMergedIntoTheMetadataAndTheProfileName) {
    const auto ip = newClientIp();
    auto account = createUser("data");
    auto session = signIn(account, ip);
    ASSERT_EQ(putJson("/auth/v1/user", {{"data", {{"full_name", "Aroha Ngata"}, {"team", "ops"}}}}, session.headers()).status, 200);
    auto r = putJson("/auth/v1/user", {{"data", {{"full_name", "Aroha Ngata-Tane"}}}}, session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["user_metadata"], nlohmann::json({{"full_name", "Aroha Ngata-Tane"}, {"team", "ops"}}));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE id = ? AND full_name = 'Aroha Ngata-Tane'", {account.id}), 1);

    auto removed = putJson("/auth/v1/user", {{"data", {{"team", nullptr}}}}, session.headers());
    ASSERT_EQ(removed.status, 200);
    EXPECT_EQ(removed.json()["user_metadata"], nlohmann::json({{"full_name", "Aroha Ngata-Tane"}}));
    EXPECT_EQ(userRequest(session).json()["user_metadata"], nlohmann::json({{"full_name", "Aroha Ngata-Tane"}}));
    // Data alone needs no second factor and ends no session.
    EXPECT_EQ(putJson("/auth/v1/user", {{"data", "not an object"}}, session.headers()).status, 400);
}

TEST(AuthUser, AnEmailChangeWaitsForTheLinkSentToTheNewAddress) {
    const auto ip = newClientIp();
    auto account = createUser("oldaddr");
    auto session = signIn(account, ip);
    const auto newAddress = newEmail("newaddr");
    auto r = putJson("/auth/v1/user", {{"email", newAddress}}, session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["email"], account.email);
    EXPECT_EQ(r.json()["new_email"], newAddress);
    auto link = waitForLink(newAddress, "email_change");
    auto followed = followLink(link, ip);
    ASSERT_EQ(followed.status, 303);
    EXPECT_EQ(redirectOf(followed).fragment["type"], "email_change");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND email = ? AND email_change IS NULL", {account.id, newAddress}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE id = ? AND email = ?", {account.id, newAddress}), 1);
    EXPECT_EQ(signInRequest(newAddress, account.password, ip).status, 200);
    // An address someone else has is refused.
    auto other = createUser("holder");
    auto taken = putJson("/auth/v1/user", {{"email", other.email}}, session.headers());
    EXPECT_EQ(taken.status, 422) << taken.body;
    EXPECT_EQ(taken.json()["code"], "email_exists");
}

// /auth/v1/health, /settings, /.well-known/jwks.json, and the headers every /auth/v1 answer carries.
#include "api/auth_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

TEST(AuthMeta, HealthNamesTheService) {
    auto r = get("/auth/v1/health");
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["version"], "v2");
    EXPECT_EQ(j["name"], "storefront-auth");
    EXPECT_TRUE(j["description"].is_string());
}

TEST(AuthMeta, SettingsDescribeThisServer) {
    auto r = get("/auth/v1/settings");
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["external"]["email"], true);
    EXPECT_EQ(j["external"]["phone"], false);
    EXPECT_EQ(j["disable_signup"], false);
    EXPECT_EQ(j["mailer_autoconfirm"], false); // the harness server confirms by email
    EXPECT_EQ(j["phone_autoconfirm"], false);
    EXPECT_EQ(j["password_min_length"], 6);

    auto other = http(serverWith({{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}}), "GET", "/auth/v1/settings");
    ASSERT_EQ(other.status, 200);
    EXPECT_EQ(other.json()["mailer_autoconfirm"], true);
}

TEST(AuthMeta, JwksPublishesThePublicKeyThatSignsAccessTokens) {
    auto r = get("/auth/v1/.well-known/jwks.json");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.header("cache-control").find("max-age"), std::string::npos);
    auto keys = r.json()["keys"];
    ASSERT_TRUE(keys.is_array());
    ASSERT_GE(keys.size(), 1u);
    for (const auto& k : keys) {
        EXPECT_EQ(k["kty"], "EC");
        EXPECT_EQ(k["crv"], "P-256");
        EXPECT_EQ(k["alg"], "ES256");
        EXPECT_EQ(k["use"], "sig");
        EXPECT_EQ(k["key_ops"], nlohmann::json::array({"verify"}));
        EXPECT_EQ(k["x"].get<std::string>().size(), 43u); // 32 bytes, base64url
        EXPECT_EQ(k["y"].get<std::string>().size(), 43u);
        EXPECT_FALSE(k.contains("d")) << "the private part must never be published";
    }
    auto session = signIn(createUser("jwks"), newClientIp());
    auto header = jwtHeader(session.accessToken);
    EXPECT_EQ(header["alg"], "ES256");
    EXPECT_EQ(header["typ"], "JWT");
    bool published = false;
    for (const auto& k : keys) published = published || k["kid"] == header["kid"];
    EXPECT_TRUE(published) << header.dump();
}

TEST(AuthMeta, EveryAuthAnswerNamesTheApiVersionAndErrorsCarryTheirCodeInAHeader) {
    const auto ip = newClientIp();
    const std::vector<std::pair<std::string, HttpResult>> answers = {
        {"health", get("/auth/v1/health")},
        {"settings", get("/auth/v1/settings")},
        {"jwks", get("/auth/v1/.well-known/jwks.json")},
        {"user without a token", get("/auth/v1/user", as(ip))},
        {"bad grant", postJson("/auth/v1/token?grant_type=magic", nlohmann::json::object(), as(ip))},
        {"bad credentials", signInRequest(newEmail("nobody"), "Kea-not-a-user", ip)},
        {"weak password", postJson("/auth/v1/signup", {{"email", newEmail("weak")}, {"password", "123"}}, as(ip))},
        {"not json", http(env().port, "POST", "/auth/v1/signup", "email=x", {{"Content-Type", "application/x-www-form-urlencoded"}})},
        {"unknown route", get("/auth/v1/nope")},
        {"verify link", get("/auth/v1/verify?token=nope&type=signup")},
    };
    for (const auto& [name, r] : answers) {
        EXPECT_EQ(r.header("x-supabase-api-version"), "2024-01-01") << name;
        if (r.status >= 400) {
            auto code = r.json()["code"];
            ASSERT_TRUE(code.is_string()) << name << ": " << r.body;
            EXPECT_EQ(r.header("x-sb-error-code"), code.get<std::string>()) << name;
        } else {
            EXPECT_EQ(r.header("x-sb-error-code"), "") << name;
        }
    }
    // Other APIs keep their own headers.
    EXPECT_EQ(get("/api/v1/products").header("x-supabase-api-version"), "");
}

TEST(AuthMeta, TokenAnswersAreNeverCached) {
    auto account = createUser("nocache");
    auto r = signInRequest(account.email, account.password, newClientIp());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("cache-control"), "no-store");
}

// Refresh-token rotation: a retry gets the active token back, an older token ends the session,
// parallel refreshes agree, and sessions end after inactivity or their timebox.
#include "api/auth_support.h"

#include "auth/secrets.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

using namespace testing_support;

namespace {

std::string refreshed(const std::string& token, const std::string& ip) {
    auto r = refreshRequest(token, ip);
    if (r.status != 200) throw std::runtime_error("refresh: HTTP " + std::to_string(r.status) + " " + r.body);
    return r.json()["refresh_token"];
}

} // namespace

TEST(AuthRefresh, RotatesTheTokenAndKeepsTheSession) {
    const auto ip = newClientIp();
    auto account = createUser("rotate");
    auto session = signIn(account, ip);
    auto r = refreshRequest(session.refreshToken, ip);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_NE(j["refresh_token"], session.refreshToken);
    EXPECT_EQ(j["user"]["id"], account.id);
    EXPECT_EQ(j["token_type"], "bearer");
    auto claims = jwtClaims(j["access_token"]);
    EXPECT_EQ(claims["session_id"], session.sessionId);
    EXPECT_EQ(claims["aal"], "aal1");
    EXPECT_EQ(get("/auth/v1/user", as(ip, j["access_token"])).status, 200);
    EXPECT_EQ(get("/auth/v1/user", session.headers()).status, 200); // the old access token lives on until it expires
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_refresh_tokens WHERE session_id = ? AND revoked = FALSE", {session.sessionId}), 1);
}

TEST(AuthRefresh, ReplayingTheJustRotatedTokenReturnsTheSameActiveToken) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("retry"), ip);
    const auto child = refreshed(session.refreshToken, ip);
    // The response was lost, the client retries with the old token: it gets the same child, not a new one.
    auto retry = refreshRequest(session.refreshToken, ip);
    ASSERT_EQ(retry.status, 200) << retry.body;
    EXPECT_EQ(retry.json()["refresh_token"], child);
    auto again = refreshRequest(session.refreshToken, ip);
    ASSERT_EQ(again.status, 200);
    EXPECT_EQ(again.json()["refresh_token"], child);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_refresh_tokens WHERE session_id = ?", {session.sessionId}), 2);
    // And the child still rotates normally.
    EXPECT_NE(refreshed(child, ip), child);
}

TEST(AuthRefresh, ReplayingAGrandparentEndsTheSession) {
    const auto ip = newClientIp();
    auto account = createUser("reuse");
    auto session = signIn(account, ip);
    auto other = signIn(account, ip); // another device: not affected
    const auto child = refreshed(session.refreshToken, ip);
    auto second = refreshRequest(child, ip);
    ASSERT_EQ(second.status, 200);
    const std::string grandchild = second.json()["refresh_token"];
    const std::string latestAccess = second.json()["access_token"];

    auto replay = refreshRequest(session.refreshToken, ip);
    EXPECT_EQ(replay.status, 400) << replay.body;
    EXPECT_EQ(replay.json()["code"], "refresh_token_already_used");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ?", {session.sessionId}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'token_reuse_detected' AND user_id = ?", {account.id}), 1);

    auto access = get("/auth/v1/user", as(ip, latestAccess));
    EXPECT_EQ(access.status, 403) << access.body;
    EXPECT_EQ(access.json()["code"], "session_not_found");
    auto active = refreshRequest(grandchild, ip);
    EXPECT_EQ(active.status, 400) << active.body;
    EXPECT_EQ(refreshRequest(child, ip).status, 400);
    EXPECT_EQ(userRequest(other).status, 200);
    EXPECT_EQ(refreshRequest(other.refreshToken, ip).status, 200);
}

TEST(AuthRefresh, TwentyParallelRefreshesOfOneTokenAllGetTheSameNewToken) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("parallel"), ip);
    constexpr int kClients = 20;
    std::vector<HttpResult> results(kClients);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i)
        threads.emplace_back([&, i] {
            try {
                results[i] = refreshRequest(session.refreshToken, ip);
            } catch (const std::exception& e) {
                results[i].body = e.what();
            }
        });
    for (auto& t : threads) t.join();
    std::set<std::string> tokens;
    for (const auto& r : results) {
        ASSERT_EQ(r.status, 200) << r.body;
        tokens.insert(r.json()["refresh_token"].get<std::string>());
    }
    EXPECT_EQ(tokens.size(), 1u);
    EXPECT_NE(*tokens.begin(), session.refreshToken);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_refresh_tokens WHERE session_id = ?", {session.sessionId}), 2);
    EXPECT_EQ(refreshRequest(*tokens.begin(), ip).status, 200);
}

TEST(AuthRefresh, UnknownOrMalformedTokensAre400NotFound) {
    const auto ip = newClientIp();
    for (const auto& token : {std::string("not-a-token"), storefront::auth::randomToken(), std::string(600, 'a')}) {
        auto r = refreshRequest(token, ip);
        EXPECT_EQ(r.status, 400) << r.body;
        EXPECT_EQ(r.json()["code"], "refresh_token_not_found");
    }
    auto missing = postJson("/auth/v1/token?grant_type=refresh_token", nlohmann::json::object(), as(ip));
    EXPECT_EQ(missing.status, 400);
    EXPECT_EQ(missing.json()["code"], "refresh_token_not_found");
    auto notText = postJson("/auth/v1/token?grant_type=refresh_token", {{"refresh_token", 7}}, as(ip));
    EXPECT_EQ(notText.status, 400);
}

TEST(AuthRefresh, AnIdleSessionExpires) {
    const auto ip = newClientIp();
    auto account = createUser("idle");
    auto session = signIn(account, ip);
    auto fresh = signIn(account, ip);
    settleServers();
    execSql("UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?", {testClock().timestampAfter(-8 * 86400), session.sessionId});
    auto r = refreshRequest(session.refreshToken, ip);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json()["code"], "session_expired");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ?", {session.sessionId}), 0);
    EXPECT_EQ(userRequest(session).json()["code"], "session_not_found");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'session_expired' AND user_id = ?", {account.id}), 1);
    // Refreshing keeps a session alive: six days idle is still fine.
    execSql("UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?", {testClock().timestampAfter(-6 * 86400), fresh.sessionId});
    EXPECT_EQ(refreshRequest(fresh.refreshToken, ip).status, 200);
}

TEST(AuthRefresh, ASessionEndsAtItsTimeboxHoweverActive) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("timebox"), ip);
    settleServers();
    // Refreshed every six days (inside the seven-day idle limit), it still ends 30 days after sign-in.
    ClockShift shift;
    auto token = session.refreshToken;
    // Each step is an hour short of six days, so the fifth refresh (day 29 and 19 hours) stays inside
    // the 30 days however long the test itself takes in real time.
    for (int i = 0; i < 5; ++i) {
        shift.advance(std::chrono::days(6) - std::chrono::hours(1));
        auto kept = refreshRequest(token, ip);
        ASSERT_EQ(kept.status, 200) << "day " << 6 * (i + 1) << ": " << kept.body;
        token = kept.json()["refresh_token"].get<std::string>();
    }
    shift.advance(std::chrono::days(1) + std::chrono::hours(6)); // day 31
    auto r = refreshRequest(token, ip);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json()["code"], "session_expired");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ?", {session.sessionId}), 0);
}

TEST(AuthRefresh, ABannedUsersSessionEndsAtTheNextRefresh) {
    const auto ip = newClientIp();
    auto account = createUser("banrefresh");
    auto session = signIn(account, ip);
    execSql("UPDATE users SET banned_until = ? WHERE id = ?", {testClock().timestampAfter(3600), account.id});
    auto r = refreshRequest(session.refreshToken, ip);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ?", {session.sessionId}), 0);
}

// TOTP factors: enrol, challenge, verify (the step up to aal2), unenrol; codes work once, within one
// step of skew, and a challenge takes a bounded number of wrong codes.
#include "api/auth_support.h"

#include "auth/totp.h"

#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

#include <thread>

using namespace testing_support;
using storefront::auth::totpCode;

TEST(AuthFactors, EnrolReturnsASecretItsUriAndAQrCode) {
    const auto ip = newClientIp();
    auto account = createUser("enrol");
    auto session = signIn(account, ip);
    auto r = enrolRequest(session, {{"factor_type", "totp"}, {"friendly_name", "Phone"}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["id"].get<std::string>().size(), 36u);
    EXPECT_EQ(j["type"], "totp");
    EXPECT_EQ(j["friendly_name"], "Phone");
    const std::string secret = j["totp"]["secret"], uri = j["totp"]["uri"], qr = j["totp"]["qr_code"];
    EXPECT_EQ(secret.size(), 32u);
    EXPECT_TRUE(storefront::auth::base32Decode(secret));
    EXPECT_TRUE(uri.starts_with("otpauth://totp/Signalcraft:")) << uri;
    EXPECT_NE(uri.find("secret=" + secret), std::string::npos) << uri;
    EXPECT_NE(uri.find("&issuer=Signalcraft"), std::string::npos) << uri;
    EXPECT_NE(uri.find("%40example.nz"), std::string::npos) << uri; // the account, escaped
    EXPECT_TRUE(qr.starts_with("<svg")) << qr.substr(0, 40);
    EXPECT_TRUE(qr.ends_with("</svg>"));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ? AND status = 'unverified'", {account.id}), 1);
    // Listed on the user, unverified.
    auto factors = userRequest(session).json()["factors"];
    ASSERT_EQ(factors.size(), 1u);
    EXPECT_EQ(factors[0]["status"], "unverified");
    EXPECT_EQ(factors[0]["factor_type"], "totp");
    EXPECT_EQ(enrolRequest(session, {{"factor_type", "phone"}}).status, 400);
}

TEST(AuthFactors, EnrollingAgainDropsTheUnfinishedEnrolment) {
    const auto ip = newClientIp();
    auto account = createUser("reenrol");
    auto session = signIn(account, ip);
    auto first = enrolFactor(session);
    auto second = enrolFactor(session);
    EXPECT_NE(first.id, second.id);
    EXPECT_NE(first.secret, second.secret);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id}), 1);
    auto r = challengeRequest(session, first.id);
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_factor_not_found");
    // A verified factor stays when another enrolment starts.
    stepUp(session, second);
    enrolFactor(session);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id}), 2);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ? AND status = 'verified'", {second.id}), 1);
}

TEST(AuthFactors, AChallengeExpiresInFiveMinutes) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("challenge"), ip);
    auto factor = enrolFactor(session);
    auto r = challengeRequest(session, factor.id);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["id"].get<std::string>().size(), 36u);
    EXPECT_EQ(j["type"], "totp");
    EXPECT_NEAR(j["expires_at"].get<double>(), static_cast<double>(Poco::Timestamp().epochTime() + 300), 5);
}

TEST(AuthFactors, TheRightCodeStepsTheSessionUpToAal2) {
    const auto ip = newClientIp();
    auto account = createUser("verify");
    auto session = signIn(account, ip);
    const auto oldRefresh = session.refreshToken;
    auto factor = enrolFactor(session);
    auto challengeId = challenge(session, factor.id);
    auto r = verifyRequest(session, factor.id, challengeId, nextCode(factor));
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    auto claims = jwtClaims(j["access_token"]);
    EXPECT_EQ(claims["aal"], "aal2");
    EXPECT_EQ(claims["session_id"], session.sessionId); // the same session, stepped up
    bool totp = false, password = false;
    for (const auto& m : claims["amr"]) {
        totp = totp || m["method"] == "totp";
        password = password || m["method"] == "password";
    }
    EXPECT_TRUE(totp) << claims["amr"].dump();
    EXPECT_TRUE(password) << claims["amr"].dump();
    EXPECT_EQ(j["user"]["factors"][0]["status"], "verified");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ? AND aal = 'aal2'", {session.sessionId}), 1);
    // The challenge is spent.
    auto again = verifyRequest(session, factor.id, challengeId, nextCode(factor));
    EXPECT_EQ(again.status, 422);
    EXPECT_EQ(again.json()["code"], "mfa_challenge_expired");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'mfa_factor_activated' AND user_id = ?", {account.id}), 1);
    // Refreshing keeps aal2.
    EXPECT_NE(j["refresh_token"], oldRefresh);
    auto refreshed = refreshRequest(j["refresh_token"], ip);
    ASSERT_EQ(refreshed.status, 200) << refreshed.body;
    EXPECT_EQ(jwtClaims(refreshed.json()["access_token"])["aal"], "aal2");
    // The aal1 refresh token was replaced, not rotated: it cannot fetch aal2 tokens, and coming
    // back counts as reuse, which ends the session.
    auto old = refreshRequest(oldRefresh, ip);
    EXPECT_EQ(old.status, 400) << old.body;
    EXPECT_EQ(old.json()["code"], "refresh_token_already_used");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ?", {session.sessionId}), 0);
}

TEST(AuthFactors, ACodeWorksOnlyOnce) {
    const auto ip = newClientIp();
    auto account = createUser("replay");
    auto session = signIn(account, ip);
    auto factor = enrolFactor(session);
    const auto code = nextCode(factor);
    ASSERT_EQ(verifyRequest(session, factor.id, challenge(session, factor.id), code).status, 200);
    auto replay = verifyRequest(session, factor.id, challenge(session, factor.id), code);
    EXPECT_EQ(replay.status, 422) << replay.body;
    EXPECT_EQ(replay.json()["code"], "mfa_verification_failed");
    // Nor from another session of the same user, which stays at aal1.
    auto other = signIn(account, ip);
    auto elsewhere = verifyRequest(other, factor.id, challenge(other, factor.id), code);
    EXPECT_EQ(elsewhere.status, 422) << elsewhere.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ? AND aal = 'aal1'", {other.sessionId}), 1);
}

TEST(AuthFactors, TwoParallelVerifiesOfOneCodeSucceedOnce) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("race"), ip);
    auto factor = enrolVerifiedFactor(session);
    const auto code = nextCode(factor);
    const auto first = challenge(session, factor.id), second = challenge(session, factor.id);
    HttpResult a, b;
    std::thread ta([&] { a = verifyRequest(session, factor.id, first, code); });
    std::thread tb([&] { b = verifyRequest(session, factor.id, second, code); });
    ta.join();
    tb.join();
    EXPECT_EQ((a.status == 200) + (b.status == 200), 1) << a.status << " " << a.body << " / " << b.status << " " << b.body;
    const auto& refused = a.status == 200 ? b : a;
    EXPECT_EQ(refused.status, 422) << refused.body;
    EXPECT_EQ(refused.json()["code"], "mfa_verification_failed");
}

TEST(AuthFactors, AnExpiredChallengeIsRefused) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("late"), ip);
    auto factor = enrolFactor(session);
    auto challengeId = challenge(session, factor.id);
    ClockShift later(std::chrono::minutes(5) + std::chrono::seconds(1)); // a challenge lasts five minutes
    auto r = verifyRequest(session, factor.id, challengeId, nextCode(factor));
    EXPECT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_challenge_expired");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ? AND status = 'unverified'", {factor.id}), 1);
}

TEST(AuthFactors, FiveWrongCodesSpendTheChallengeEvenForTheRightCode) {
    const auto ip = newClientIp();
    auto account = createUser("guess");
    auto session = signIn(account, ip);
    auto factor = enrolFactor(session);
    auto challengeId = challenge(session, factor.id);
    for (int i = 0; i < 5; ++i) {
        auto r = verifyRequest(session, factor.id, challengeId, wrongCode(factor.secret));
        ASSERT_EQ(r.status, 422) << i << ": " << r.body;
        EXPECT_EQ(r.json()["code"], "mfa_verification_failed");
    }
    const auto code = nextCode(factor);
    auto r = verifyRequest(session, factor.id, challengeId, code);
    EXPECT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_verification_rejected");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'mfa_verification_failed' AND user_id = ?", {account.id}), 5);
    // A new challenge takes the (unspent) code.
    EXPECT_EQ(verifyRequest(session, factor.id, challenge(session, factor.id), code).status, 200);
}

TEST(AuthFactors, CodesWithinOneStepOfSkewWorkTwoStepsDoNot) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("skew"), ip);
    auto factor = enrolFactor(session);
    awayFromStepBoundary();
    const auto step = totpStepNow();
    auto twoBack = verifyRequest(session, factor.id, challenge(session, factor.id), totpCode(factor.secret, step - 2));
    EXPECT_EQ(twoBack.status, 422) << twoBack.body;
    EXPECT_EQ(twoBack.json()["code"], "mfa_verification_failed");
    auto twoAhead = verifyRequest(session, factor.id, challenge(session, factor.id), totpCode(factor.secret, step + 2));
    EXPECT_EQ(twoAhead.status, 422);
    auto oneBack = verifyRequest(session, factor.id, challenge(session, factor.id), totpCode(factor.secret, step - 1));
    EXPECT_EQ(oneBack.status, 200) << oneBack.body;
}

TEST(AuthFactors, MalformedCodesAndIdsAreRefused) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("malformed"), ip);
    auto factor = enrolFactor(session);
    auto challengeId = challenge(session, factor.id);
    for (const auto& code : {std::string("12345"), std::string("1234567"), std::string("12345a"), std::string(" 12345")}) {
        auto r = verifyRequest(session, factor.id, challengeId, code);
        EXPECT_EQ(r.status, 422) << code;
    }
    EXPECT_EQ(postJson("/auth/v1/factors/" + factor.id + "/verify", {{"challenge_id", challengeId}}, session.headers()).status, 400);
    EXPECT_EQ(verifyRequest(session, factor.id, "not-a-uuid", "123456").status, 404);
    EXPECT_EQ(verifyRequest(session, "not-a-uuid", challengeId, "123456").status, 404);
    EXPECT_EQ(challengeRequest(session, storefront::db::newId()).status, 404);
}

TEST(AuthFactors, AnotherUsersFactorOrChallengeIsNotFound) {
    const auto ip = newClientIp();
    auto alice = signIn(createUser("alice"), ip);
    auto bob = signIn(createUser("bob"), ip);
    auto aliceFactor = enrolFactor(alice);
    auto bobFactor = enrolFactor(bob);
    auto aliceChallenge = challenge(alice, aliceFactor.id);

    auto challengeOther = challengeRequest(bob, aliceFactor.id);
    EXPECT_EQ(challengeOther.status, 404) << challengeOther.body;
    EXPECT_EQ(challengeOther.json()["code"], "mfa_factor_not_found");
    auto verifyOther = verifyRequest(bob, aliceFactor.id, aliceChallenge, nextCode(aliceFactor));
    EXPECT_EQ(verifyOther.status, 404);
    auto otherChallenge = verifyRequest(bob, bobFactor.id, aliceChallenge, nextCode(bobFactor));
    EXPECT_EQ(otherChallenge.status, 404) << otherChallenge.body;
    EXPECT_EQ(otherChallenge.json()["code"], "mfa_challenge_not_found");
    auto unenrolOther = del("/auth/v1/factors/" + aliceFactor.id, bob.headers());
    EXPECT_EQ(unenrolOther.status, 404);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {aliceFactor.id}), 1);
    // Nothing Bob did used up Alice's challenge.
    EXPECT_EQ(verifyRequest(alice, aliceFactor.id, aliceChallenge, nextCode(aliceFactor)).status, 200);
}

TEST(AuthFactors, AChallengeBelongsToTheSessionThatMadeIt) {
    const auto ip = newClientIp();
    auto account = createUser("twosessions");
    auto first = signIn(account, ip), second = signIn(account, ip);
    auto factor = enrolFactor(first);
    auto challengeId = challenge(first, factor.id);
    auto r = verifyRequest(second, factor.id, challengeId, nextCode(factor));
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(jwtClaims(second.accessToken)["aal"], "aal1");
}

TEST(AuthFactors, UnenrollingAVerifiedFactorNeedsAal2) {
    const auto ip = newClientIp();
    auto account = createUser("unenrol");
    auto strong = signIn(account, ip);
    auto factor = enrolVerifiedFactor(strong);
    auto weak = signIn(account, ip);
    auto refused = del("/auth/v1/factors/" + factor.id, weak.headers());
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(refused.json()["code"], "insufficient_aal");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {factor.id}), 1);

    auto removed = del("/auth/v1/factors/" + factor.id, strong.headers());
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(removed.json()["id"], factor.id);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {factor.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'mfa_unenrolled' AND user_id = ?", {account.id}), 1);
    // Without a verified factor, aal1 is enough again (e.g. to change the password).
    EXPECT_EQ(putJson("/auth/v1/user", {{"password", "Tui-song-" + storefront::db::newId().substr(0, 8)}, {"current_password", account.password}},
                      weak.headers()).status, 200);
}

TEST(AuthFactors, AnUnverifiedFactorCanBeRemovedAtAal1) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("unfinished"), ip);
    auto factor = enrolFactor(session);
    EXPECT_EQ(del("/auth/v1/factors/" + factor.id, session.headers()).status, 200);
}

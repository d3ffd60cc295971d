// TOTP secrets are sealed in mfa_factors (auth/factor_secrets.h): the stored value is not the
// secret; enrolment, challenge and verify work on it; secrets stored in plain text before
// encryption keep working and are sealed (on use, and at start-up); the wrong key fails clearly.
#include "api/auth_support.h"

#include "auth/factor_secrets.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string sealedSecretOf(const std::string& factorId) {
    auto rows = textColumn("SELECT secret FROM mfa_factors WHERE id = ?", {factorId});
    return rows.empty() ? std::string() : rows.front();
}

} // namespace

TEST(AuthTotpAtRest, TheStoredValueIsNotTheSecretAndVerifyStillWorks) {
    const auto ip = newClientIp();
    auto account = createUser("sealed");
    auto session = signIn(account, ip);
    auto factor = enrolFactor(session);
    ASSERT_EQ(factor.secret.size(), 32u);
    const auto stored = sealedSecretOf(factor.id);
    EXPECT_TRUE(stored.starts_with("v1:")) << stored;
    EXPECT_EQ(stored.find(factor.secret), std::string::npos);
    EXPECT_NE(stored, factor.secret);
    // Challenge and verify with the secret the user was shown: the session steps up.
    stepUp(session, factor);
    EXPECT_EQ(jwtClaims(session.accessToken)["aal"], "aal2");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ? AND status = 'verified'", {factor.id}), 1);
    // A wrong code is still refused.
    auto challengeId = challenge(session, factor.id);
    auto r = verifyRequest(session, factor.id, challengeId, wrongCode(factor.secret));
    EXPECT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_verification_failed");
    EXPECT_EQ(sealedSecretOf(factor.id), stored); // verifying never rewrites a sealed secret
}

TEST(AuthTotpAtRest, APlainSecretFromBeforeEncryptionWorksAndIsSealedOnUse) {
    const auto ip = newClientIp();
    auto account = createUser("legacy");
    auto session = signIn(account, ip);
    auto factor = enrolFactor(session);
    execSql("UPDATE mfa_factors SET secret = ? WHERE id = ?", {factor.secret, factor.id}); // as 0005 stored it
    stepUp(session, factor);
    EXPECT_EQ(jwtClaims(session.accessToken)["aal"], "aal2");
    const auto stored = sealedSecretOf(factor.id);
    EXPECT_TRUE(stored.starts_with("v1:")) << stored;
    EXPECT_EQ(stored.find(factor.secret), std::string::npos);
    // And it keeps working sealed.
    stepUp(session, factor);
    EXPECT_EQ(jwtClaims(session.accessToken)["aal"], "aal2");
}

TEST(AuthTotpAtRest, StartUpSealsEveryPlainSecret) {
    const auto ip = newClientIp();
    auto account = createUser("startup");
    auto session = signIn(account, ip);
    auto factor = enrolVerifiedFactor(session);
    execSql("UPDATE mfa_factors SET secret = ? WHERE id = ?", {factor.secret, factor.id});
    ASSERT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE secret NOT LIKE 'v1:%'"), 1);
    // A server starting on this database (same key) seals it before answering.
    const int port = serverWith({{"STOREFRONT_SITE_NAME", "Reseal " + unique("s")}});
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE secret NOT LIKE 'v1:%'"), 0);
    EXPECT_TRUE(sealedSecretOf(factor.id).starts_with("v1:"));
    // The factor still verifies, on that server too.
    auto challengeR = sendJson(port, "POST", "/auth/v1/factors/" + factor.id + "/challenge", nlohmann::json::object(),
                               session.headers());
    ASSERT_EQ(challengeR.status, 200) << challengeR.body;
    auto verifyR = sendJson(port, "POST", "/auth/v1/factors/" + factor.id + "/verify",
                            {{"challenge_id", challengeR.json()["id"]}, {"code", nextCode(factor)}}, session.headers());
    EXPECT_EQ(verifyR.status, 200) << verifyR.body;
}

TEST(AuthTotpAtRest, AServerWithTheWrongKeyRefusesToStart) {
    const auto ip = newClientIp();
    auto account = createUser("wrongkey");
    auto session = signIn(account, ip);
    enrolVerifiedFactor(session);
    try {
        serverWith({{"STOREFRONT_TOTP_KEY", "a-different-totp-key-0123456789abcdefghij"}});
        FAIL() << "a server with the wrong TOTP key started";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("TOTP key does not open the stored two-factor secrets"), std::string::npos)
            << e.what();
    }
}

TEST(AuthTotpAtRest, ASecretSealedUnderAnotherKeyAnswersAClearErrorAndChangesNothing) {
    const auto ip = newClientIp();
    auto account = createUser("otherkey");
    auto session = signIn(account, ip);
    auto factor = enrolFactor(session);
    const auto foreign = storefront::auth::FactorSecrets("a-different-totp-key-0123456789abcdefghij").seal(factor.id, factor.secret);
    execSql("UPDATE mfa_factors SET secret = ? WHERE id = ?", {foreign, factor.id});
    auto challengeId = challenge(session, factor.id);
    auto r = verifyRequest(session, factor.id, challengeId, nextCode(factor));
    // Removed before asserting: a row no key opens would stop the next server's start-up.
    execSql("DELETE FROM mfa_factors WHERE id = ?", {factor.id});
    EXPECT_EQ(r.status, 500) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_secret_unreadable");
    EXPECT_EQ(r.body.find(factor.secret), std::string::npos);
    EXPECT_EQ(jwtClaims(session.accessToken)["aal"], "aal1");
}

// Account security (docs/auth.md, "Security notices", "Changing the email address", "Recovery
// codes", "Removing a factor"): a notice mail for every change that protects an account, queued
// once in the change's transaction; the secure email change; single-use recovery codes at the
// two-factor step; a current code to remove a factor. Each refusal changes nothing.
#include "api/auth_support.h"
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

using namespace testing_support;

namespace {

std::int64_t mails(const std::string& kind, const std::string& to) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, to});
}

std::string newestText(const std::string& kind, const std::string& to) {
    auto rows = textColumn("SELECT body_text FROM mail_outbox WHERE kind = ? AND to_address = ? ORDER BY created_at DESC", {kind, to});
    return rows.empty() ? std::string() : rows.front();
}

std::int64_t factorsOf(const std::string& userId) { return countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {userId}); }

HttpResult removeFactor(const Session& session, const std::string& factorId, const nlohmann::json& body = nullptr) {
    return del("/auth/v1/factors/" + factorId, session.headers(), body);
}

HttpResult makeCodes(const Session& session) { return postJson("/api/v1/account/recovery-codes", nlohmann::json::object(), session.headers()); }

// A user with a verified factor, and that session at aal2.
struct TwoFactorUser {
    Account account;
    Session session;
    Factor factor;
};

TwoFactorUser twoFactorUser(const std::string& prefix) {
    TwoFactorUser u;
    u.account = createUser(prefix);
    u.session = signIn(u.account, newClientIp());
    u.factor = enrolVerifiedFactor(u.session);
    return u;
}

std::vector<std::string> codesOf(const HttpResult& r) { return r.json()["codes"].get<std::vector<std::string>>(); }

// Verifies `code` at a new challenge of `factorId` in `session`.
HttpResult verifyWith(const Session& session, const std::string& factorId, const std::string& code) {
    return verifyRequest(session, factorId, challenge(session, factorId), code);
}

} // namespace

TEST(AccountSecurityApi, APasswordChangeMailsOneNoticeAndAWrongCurrentPasswordMailsNone) {
    auto user = createUser("notice-password");
    auto session = signIn(user, newClientIp());
    auto wrong = putJson("/auth/v1/user", {{"password", "A new password 2"}, {"current_password", "not it at all"}}, session.headers());
    EXPECT_EQ(wrong.status, 400) << wrong.body;
    EXPECT_EQ(mails("password_changed", user.email), 0);

    auto changed = putJson("/auth/v1/user", {{"password", "A new password 2"}, {"current_password", user.password}}, session.headers());
    ASSERT_EQ(changed.status, 200) << changed.body;
    EXPECT_EQ(mails("password_changed", user.email), 1);
    const auto text = newestText("password_changed", user.email);
    EXPECT_NE(text.find("support@signalcraft.co.nz"), std::string::npos) << text;
    EXPECT_NE(text.find("(New Zealand time)"), std::string::npos) << text;
}

TEST(AccountSecurityApi, AnEmailChangeWaitsForTheLinkOnTheNewAddressThenTellsTheOldOne) {
    // Sign-up confirmation off (as `make run` has it) changes nothing here: the link is still needed.
    const int devLike = serverWith({{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}});
    auto user = createUser("notice-move");
    auto session = signIn(user, newClientIp());
    const auto newAddress = newEmail("notice-moved");
    auto asked = sendJson(devLike, "PUT", "/auth/v1/user", {{"email", newAddress}}, session.headers());
    ASSERT_EQ(asked.status, 200) << asked.body;
    EXPECT_EQ(asked.json()["email"], user.email);
    EXPECT_EQ(asked.json()["new_email"], newAddress);
    EXPECT_EQ(textColumn("SELECT email FROM users WHERE id = ?", {user.id}).at(0), user.email);
    EXPECT_EQ(mails("email_changed", user.email), 0);

    // The link is in the outbox, to the new address only.
    const auto mail = newestText("auth_email_change", newAddress);
    std::smatch found;
    ASSERT_TRUE(std::regex_search(mail, found, std::regex(R"(https?://\S+/auth/v1/verify\?\S+)"))) << mail;
    const std::string link = found[0];
    EXPECT_EQ(mails("auth_email_change", user.email), 0);

    auto opened = postJson("/auth/v1/verify", {{"type", "email_change"}, {"token", tokenOf(link)}}, as(newClientIp()));
    ASSERT_EQ(opened.status, 200) << opened.body;
    EXPECT_EQ(textColumn("SELECT email FROM users WHERE id = ?", {user.id}).at(0), newAddress);
    EXPECT_EQ(mails("email_changed", user.email), 1);
    EXPECT_EQ(mails("email_changed", newAddress), 0);
    const auto notice = newestText("email_changed", user.email);
    EXPECT_NE(notice.find(newAddress), std::string::npos) << notice;
    EXPECT_NE(notice.find("support@signalcraft.co.nz"), std::string::npos) << notice;

    // The link works once: a second use is refused and mails nothing.
    auto again = postJson("/auth/v1/verify", {{"type", "email_change"}, {"token", tokenOf(link)}}, as(newClientIp()));
    EXPECT_EQ(again.status, 403) << again.body;
    EXPECT_EQ(mails("email_changed", user.email), 1);
}

TEST(AccountSecurityApi, AddingAFactorMailsOneNoticeWhenItIsVerifiedNotWhenEnrolled) {
    auto user = createUser("notice-factor");
    auto session = signIn(user, newClientIp());
    auto factor = enrolFactor(session);
    EXPECT_EQ(mails("factor_added", user.email), 0);
    stepUp(session, factor);
    EXPECT_EQ(mails("factor_added", user.email), 1);
    stepUp(session, factor); // a later sign-in step is no new factor
    EXPECT_EQ(mails("factor_added", user.email), 1);
}

TEST(AccountSecurityApi, RemovingAFactorNeedsACurrentCodeAndMailsOneNotice) {
    auto u = twoFactorUser("remove-factor");
    ClockShift later(std::chrono::seconds(400)); // past the recent-code window
    auto none = removeFactor(u.session, u.factor.id);
    EXPECT_EQ(none.status, 422) << none.body;
    EXPECT_EQ(none.json()["code"], "validation_failed");
    EXPECT_TRUE(none.json()["fields"].contains("code")) << none.body;
    auto wrong = removeFactor(u.session, u.factor.id, {{"code", wrongCode(u.factor.secret)}});
    EXPECT_EQ(wrong.status, 422) << wrong.body;
    EXPECT_EQ(wrong.json()["code"], "mfa_verification_failed");
    auto garbage = removeFactor(u.session, u.factor.id, {{"code", 12345}});
    EXPECT_EQ(garbage.status, 400) << garbage.body;
    EXPECT_EQ(factorsOf(u.account.id), 1);
    EXPECT_EQ(mails("factor_removed", u.account.email), 0);

    ASSERT_EQ(makeCodes(u.session).status, 200);
    auto removed = removeFactor(u.session, u.factor.id, {{"code", nextCode(u.factor)}});
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(factorsOf(u.account.id), 0);
    EXPECT_EQ(mails("factor_removed", u.account.email), 1);
    // The last factor takes the recovery codes with it.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = ?", {u.account.id}), 0);
}

TEST(AccountSecurityApi, ARecoveryCodeCanRemoveAFactorAndAnAal1SessionCannot) {
    auto u = twoFactorUser("remove-recovery");
    auto codes = codesOf(makeCodes(u.session));
    auto aal1 = signIn(u.account, newClientIp());
    auto refused = removeFactor(aal1, u.factor.id, {{"code", codes[0]}});
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(refused.json()["code"], "insufficient_aal");
    ClockShift later(std::chrono::seconds(400));
    auto removed = removeFactor(u.session, u.factor.id, {{"code", codes[0]}});
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(factorsOf(u.account.id), 0);
}

TEST(AccountSecurityApi, AStaffResetMailsTheCustomerAndEndsTheirRecoveryCodes) {
    auto u = twoFactorUser("notice-reset");
    ASSERT_EQ(makeCodes(u.session).status, 200);
    auto reset = del("/api/v1/admin/customers/" + u.account.id + "/factors", staff(), {{"reason", "Lost phone, checked by video call"}});
    ASSERT_EQ(reset.status, 200) << reset.body;
    EXPECT_EQ(mails("two_factor_reset_by_staff", u.account.email), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = ?", {u.account.id}), 0);
    // Nothing to reset the second time: a conflict, and no second mail.
    EXPECT_EQ(del("/api/v1/admin/customers/" + u.account.id + "/factors", staff(), {{"reason", "Again"}}).status, 409);
    EXPECT_EQ(mails("two_factor_reset_by_staff", u.account.email), 1);
}

TEST(AccountSecurityApi, RecoveryCodesAreTenShownOnceStoredHashedAndNeedAal2) {
    auto plain = createUser("codes-aal1");
    auto aal1 = signIn(plain, newClientIp());
    auto refused = makeCodes(aal1);
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(refused.json()["code"], "insufficient_aal");
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes", aal1.headers()).json()["remaining"], 0);
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes").status, 401);

    auto u = twoFactorUser("codes");
    auto made = makeCodes(u.session);
    ASSERT_EQ(made.status, 200) << made.body;
    const auto codes = codesOf(made);
    ASSERT_EQ(codes.size(), 10u);
    std::set<std::string> distinct(codes.begin(), codes.end());
    EXPECT_EQ(distinct.size(), 10u);
    for (const auto& code : codes) EXPECT_TRUE(std::regex_match(code, std::regex("[0-9a-z]{5}-[0-9a-z]{5}"))) << code;
    auto status = getJson("/api/v1/account/recovery-codes", u.session.headers());
    ASSERT_EQ(status.status, 200) << status.body;
    EXPECT_EQ(status.json()["remaining"], 10);
    EXPECT_TRUE(status.json()["created_at"].is_string());
    EXPECT_FALSE(status.json().contains("codes")); // shown once
    for (const auto& hash : textColumn("SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?", {u.account.id}))
        for (const auto& code : codes) EXPECT_EQ(hash.find(code.substr(0, 5)), std::string::npos);
}

TEST(AccountSecurityApi, ARecoveryCodeStepsUpOnceAndANewSetEndsTheOldOne) {
    auto u = twoFactorUser("codes-use");
    const auto codes = codesOf(makeCodes(u.session));

    // At the two-factor step, the recovery code goes where the TOTP code goes, typed loosely.
    auto later = signIn(u.account, newClientIp());
    std::string typed = codes[0];
    std::transform(typed.begin(), typed.end(), typed.begin(), ::toupper);
    auto stepped = verifyWith(later, u.factor.id, " " + typed.substr(0, 5) + " " + typed.substr(6) + " ");
    ASSERT_EQ(stepped.status, 200) << stepped.body;
    later.take(stepped.json());
    EXPECT_EQ(jwtClaims(later.accessToken)["aal"], "aal2");
    EXPECT_EQ(jwtClaims(later.accessToken)["amr"][0]["method"], "recovery_code");
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes", later.headers()).json()["remaining"], 9);

    // Used: refused like a wrong TOTP code, and the session stays at aal1.
    auto third = signIn(u.account, newClientIp());
    auto reused = verifyWith(third, u.factor.id, codes[0]);
    EXPECT_EQ(reused.status, 422) << reused.body;
    EXPECT_EQ(reused.json()["code"], "mfa_verification_failed");
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes", third.headers()).status, 403);

    // A new set: the old unused codes stop working.
    auto fresh = codesOf(makeCodes(later));
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes", later.headers()).json()["remaining"], 10);
    auto old = verifyWith(third, u.factor.id, codes[1]);
    EXPECT_EQ(old.status, 422) << old.body;
    auto good = verifyWith(third, u.factor.id, fresh[1]);
    EXPECT_EQ(good.status, 200) << good.body;
}

TEST(AccountSecurityApi, WrongRecoveryCodesCountAgainstTheChallengeLikeWrongTotpCodes) {
    auto u = twoFactorUser("codes-limit");
    const auto codes = codesOf(makeCodes(u.session));
    auto guesser = signIn(u.account, newClientIp());
    const auto challengeId = challenge(guesser, u.factor.id);
    for (int i = 0; i < 5; ++i) { // STOREFRONT_AUTH_MFA_MAX_ATTEMPTS
        auto r = verifyRequest(guesser, u.factor.id, challengeId, "zzzzz-zzzz" + std::to_string(i));
        EXPECT_EQ(r.json()["code"], "mfa_verification_failed") << r.body;
    }
    auto blocked = verifyRequest(guesser, u.factor.id, challengeId, codes[0]);
    EXPECT_EQ(blocked.status, 422) << blocked.body;
    EXPECT_EQ(blocked.json()["code"], "mfa_verification_rejected");
    // The right code was not spent by the refused attempt.
    EXPECT_EQ(getJson("/api/v1/account/recovery-codes", u.session.headers()).json()["remaining"], 10);
}

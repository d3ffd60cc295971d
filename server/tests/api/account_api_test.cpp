// The account page's server side: GoTrue's secure password change (the current password, checked
// by the server) and GET /api/v1/account/me, the web app's one call for who is signed in.
#include "api/auth_support.h"
#include "api/enterprise_support.h"

#include "db/database.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string freshPassword() { return "Tui-song-" + storefront::db::newId().substr(0, 8); }

HttpResult changePassword(const Session& session, const nlohmann::json& body) { return putJson("/auth/v1/user", body, session.headers()); }

HttpResult me(const Session& session) { return get("/api/v1/account/me", session.headers()); }

std::int64_t passwordChanges(const std::string& userId) {
    return countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'password_changed' AND user_id = ?", {userId});
}

} // namespace

TEST(AccountPassword, AWrongOrMissingCurrentPasswordIs400AndChangesNothing) {
    const auto ip = newClientIp();
    auto account = createUser("pwwrong");
    auto session = signIn(account, ip), other = signIn(account, ip);
    const auto next = freshPassword();

    auto missing = changePassword(session, {{"password", next}});
    EXPECT_EQ(missing.status, 400) << missing.body;
    EXPECT_EQ(missing.json()["code"], "current_password_required");
    auto empty = changePassword(session, {{"password", next}, {"current_password", ""}});
    EXPECT_EQ(empty.json()["code"], "current_password_required");
    auto wrong = changePassword(session, {{"password", next}, {"current_password", "not-my-password-1"}});
    EXPECT_EQ(wrong.status, 400) << wrong.body;
    EXPECT_EQ(wrong.json()["code"], "current_password_invalid");
    auto wrongType = changePassword(session, {{"password", next}, {"current_password", 12345678}});
    EXPECT_EQ(wrongType.status, 400) << wrongType.body;

    // Nothing changed: the old password still signs in, the new one does not, the other session lives.
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);
    EXPECT_EQ(signInRequest(account.email, next, ip).status, 400);
    EXPECT_EQ(userRequest(other).status, 200);
    EXPECT_EQ(passwordChanges(account.id), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'password_change_failed' AND user_id = ?", {account.id}), 1);
}

TEST(AccountPassword, AWeakNewPasswordIs422WithTheRightCurrentOne) {
    const auto ip = newClientIp();
    auto account = createUser("pwweak");
    auto session = signIn(account, ip);
    auto weak = changePassword(session, {{"password", "abc"}, {"current_password", account.password}});
    EXPECT_EQ(weak.status, 422) << weak.body;
    EXPECT_EQ(weak.json()["code"], "weak_password");
    auto common = changePassword(session, {{"password", "password123"}, {"current_password", account.password}});
    EXPECT_EQ(common.status, 422) << common.body;
    EXPECT_EQ(passwordChanges(account.id), 0);
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);
}

TEST(AccountPassword, TheRightCurrentPasswordChangesItAndSignsOutEveryOtherSession) {
    const auto ip = newClientIp();
    auto account = createUser("pwright");
    auto session = signIn(account, ip), laptop = signIn(account, ip), phone = signIn(account, ip);
    const auto next = freshPassword();
    auto r = changePassword(session, {{"password", next}, {"current_password", account.password}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(userRequest(session).status, 200);
    EXPECT_EQ(me(session).status, 200);
    EXPECT_EQ(userRequest(laptop).json()["code"], "session_not_found");
    EXPECT_EQ(userRequest(phone).json()["code"], "session_not_found");
    EXPECT_EQ(refreshRequest(laptop.refreshToken, ip).status, 400);
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 400);
    EXPECT_EQ(signInRequest(account.email, next, ip).status, 200);
    EXPECT_EQ(passwordChanges(account.id), 1);
}

TEST(AccountPassword, SignOutOfOtherDevicesKeepsThisSessionOnly) {
    const auto ip = newClientIp();
    auto account = createUser("others");
    auto session = signIn(account, ip), other = signIn(account, ip);
    auto r = http(env().port, "POST", "/auth/v1/logout?scope=others", "", session.headers());
    ASSERT_EQ(r.status, 204) << r.body;
    EXPECT_EQ(me(session).status, 200);
    EXPECT_EQ(userRequest(other).json()["code"], "session_not_found");
    EXPECT_EQ(refreshRequest(other.refreshToken, ip).status, 400);
}

TEST(AccountPassword, GuessingTheCurrentPasswordIsThrottled) {
    const auto ip = newClientIp();
    auto account = createUser("pwguess");
    auto session = signIn(account, ip);
    int refused = 0;
    for (int i = 0; i < 12 && refused == 0; ++i) {
        auto r = changePassword(session, {{"password", freshPassword()}, {"current_password", "guess-" + std::to_string(i)}});
        if (r.status == 429) refused = i;
        else EXPECT_EQ(r.json()["code"], "current_password_invalid");
    }
    EXPECT_GT(refused, 0) << "no 429 after 12 wrong current passwords";
    EXPECT_EQ(signInRequest(account.email, account.password, ip).status, 200);
}

TEST(AccountMe, APlainCustomer) {
    const auto ip = newClientIp();
    auto account = createUser("mecustomer");
    auto session = signIn(account, ip);
    ASSERT_EQ(putJson("/auth/v1/user", {{"data", {{"full_name", "Aroha Customer"}}}}, session.headers()).status, 200);
    auto r = me(session);
    ASSERT_EQ(r.status, 200) << r.body;
    auto body = r.json();
    EXPECT_EQ(body["id"], account.id);
    EXPECT_EQ(body["email"], account.email);
    EXPECT_EQ(body["full_name"], "Aroha Customer");
    EXPECT_EQ(body["roles"], nlohmann::json::array());
    EXPECT_EQ(body["aal"], "aal1");
    EXPECT_EQ(body["factors"], nlohmann::json::array());
    EXPECT_TRUE(body["enterprise"].is_null());
    EXPECT_TRUE(body["pending_email"].is_null());

    // An email change waits for its link: the old address stays, the new one is pending.
    const auto moved = newEmail("memoved");
    ASSERT_EQ(putJson("/auth/v1/user", {{"email", moved}}, session.headers()).status, 200);
    auto pending = me(session).json();
    EXPECT_EQ(pending["email"], account.email);
    EXPECT_EQ(pending["pending_email"], moved);
}

TEST(AccountMe, ANameThatIsNotTextOrTooLongIs422AndChangesNothing) {
    const auto ip = newClientIp();
    auto account = createUser("mename");
    auto session = signIn(account, ip);
    ASSERT_EQ(putJson("/auth/v1/user", {{"data", {{"full_name", "Kept Name"}}}}, session.headers()).status, 200);
    for (const auto& bad : {nlohmann::json(std::string(101, 'a')), nlohmann::json(42), nlohmann::json::array({"a"})}) {
        auto r = putJson("/auth/v1/user", {{"data", {{"full_name", bad}, {"team", "x"}}}}, session.headers());
        EXPECT_EQ(r.status, 422) << r.body;
        EXPECT_EQ(r.json()["code"], "validation_failed");
    }
    // 100 characters (not bytes) is fine.
    std::string hundred;
    for (int i = 0; i < 100; ++i) hundred += "\xC4\x81"; // U+0101
    auto r = putJson("/auth/v1/user", {{"data", {{"full_name", hundred}}}}, session.headers());
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(me(session).json()["full_name"], hundred);
    EXPECT_EQ(userRequest(session).json()["user_metadata"].contains("team"), false);
}

TEST(AccountMe, AStaffAdminWithTheirFactorAtAal2) {
    auto admin = createStaffAdmin(newClientIp());
    auto body = me(admin.session).json();
    EXPECT_EQ(body["roles"], nlohmann::json::array({"admin"}));
    EXPECT_EQ(body["aal"], "aal2");
    ASSERT_EQ(body["factors"].size(), 1u);
    EXPECT_EQ(body["factors"][0]["id"], admin.factor.id);
    EXPECT_EQ(body["factors"][0]["status"], "verified");
    EXPECT_FALSE(body["factors"][0].contains("secret"));
    EXPECT_TRUE(body["enterprise"].is_null());
}

TEST(AccountMe, AnEnterpriseAdminAndAMember) {
    auto team = createTeam("meteam");
    auto adminView = me(team.session);
    ASSERT_EQ(adminView.status, 200) << adminView.body;
    ASSERT_TRUE(adminView.json()["enterprise"].is_object()) << adminView.body;
    EXPECT_EQ(adminView.json()["enterprise"]["id"], team.accountId);
    EXPECT_EQ(adminView.json()["enterprise"]["role"], "admin");
    EXPECT_FALSE(adminView.json()["enterprise"]["name"].get<std::string>().empty());

    Account member;
    addNewMember(team, &member);
    auto memberView = me(signIn(member, newClientIp()));
    ASSERT_EQ(memberView.status, 200) << memberView.body;
    EXPECT_EQ(memberView.json()["enterprise"]["id"], team.accountId);
    EXPECT_EQ(memberView.json()["enterprise"]["role"], "member");
    EXPECT_EQ(memberView.json()["enterprise"]["name"], adminView.json()["enterprise"]["name"]);
}

TEST(AccountMe, NeedsASignedInSessionPastTheCodeStep) {
    const auto ip = newClientIp();
    EXPECT_EQ(get("/api/v1/account/me", as(ip)).status, 401);
    EXPECT_EQ(get("/api/v1/account/me", as(ip, "not-a-jwt")).status, 403);
    auto account = createUser("meaal");
    auto strong = signIn(account, ip);
    enrolVerifiedFactor(strong);
    auto weak = signIn(account, ip);
    auto r = me(weak);
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.json()["code"], "insufficient_aal");
    EXPECT_EQ(me(strong).json()["aal"], "aal2");
}

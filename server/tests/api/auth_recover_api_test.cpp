// Password recovery: one answer for every address, mail only for accounts, the link signs in, and
// the email throttle.
#include "api/auth_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

HttpResult recover(const std::string& email, const std::string& ip, const std::string& query = "") {
    return postJson("/auth/v1/recover" + query, {{"email", email}}, as(ip));
}

} // namespace

TEST(AuthRecover, AnswersTheSameForKnownAndUnknownAddressesAndMailsOnlyAccounts) {
    const auto ip = newClientIp();
    auto account = createUser("lost");
    const auto ghost = newEmail("ghost");
    auto known = recover(account.email, ip), unknown = recover(ghost, ip);
    ASSERT_EQ(known.status, 200) << known.body;
    EXPECT_EQ(unknown.status, 200);
    EXPECT_EQ(known.body, "{}");
    EXPECT_EQ(unknown.body, known.body);
    auto link = waitForLink(account.email, "recovery");
    EXPECT_EQ(linkParam(link, "redirect_to"), kPublicUrl + "/");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {ghost}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {ghost}), 0);
    EXPECT_TRUE(mailTo(ghost).empty());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'recovery_requested' AND user_id = ?", {account.id}), 1);
}

TEST(AuthRecover, TheLinkSignsInOnceForAPasswordChange) {
    const auto ip = newClientIp();
    auto account = createUser("forgot");
    ASSERT_EQ(recover(account.email, ip, "?redirect_to=https%3A%2F%2Fshop.signalcraft.test%2Faccount%2Fpassword").status, 200);
    auto link = waitForLink(account.email, "recovery");
    auto followed = followLink(link, ip);
    ASSERT_EQ(followed.status, 303) << followed.body;
    auto to = redirectOf(followed);
    EXPECT_EQ(to.target, kPublicUrl + "/account/password");
    EXPECT_EQ(to.fragment["type"], "recovery");
    const auto access = to.fragment["access_token"];
    ASSERT_FALSE(access.empty());
    EXPECT_EQ(jwtClaims(access)["amr"][0]["method"], "recovery");

    const std::string newPassword = "Tui-song-" + storefront::db::newId().substr(0, 8);
    auto changed = putJson("/auth/v1/user", {{"password", newPassword}}, as(ip, access));
    ASSERT_EQ(changed.status, 200) << changed.body;
    EXPECT_EQ(signInRequest(account.email, newPassword, ip).status, 200);
    EXPECT_EQ(redirectOf(followLink(link, ip)).fragment["error_code"], "otp_expired");
}

TEST(AuthRecover, ANewerLinkReplacesTheOlderOne) {
    const auto ip = newClientIp();
    auto account = createUser("twice");
    ASSERT_EQ(recover(account.email, ip).status, 200);
    auto first = waitForLink(account.email, "recovery", 1);
    ASSERT_EQ(recover(account.email, ip).status, 200);
    auto second = waitForLink(account.email, "recovery", 2);
    EXPECT_EQ(redirectOf(followLink(first, ip)).fragment["error_code"], "otp_expired");
    EXPECT_EQ(redirectOf(followLink(second, ip)).fragment["type"], "recovery");
}

TEST(AuthRecover, TheSixthEmailToOneAddressWithinTheHourIs429) {
    auto account = createUser("flood");
    for (int i = 0; i < 5; ++i) ASSERT_EQ(recover(account.email, newClientIp()).status, 200) << i;
    auto r = recover(account.email, newClientIp());
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_EQ(r.json()["code"], "over_email_send_rate_limit");
    EXPECT_FALSE(r.header("retry-after").empty());
    // Unknown addresses are throttled the same way, so the 429 tells nothing either.
    const auto ghost = newEmail("ghostflood");
    for (int i = 0; i < 5; ++i) ASSERT_EQ(recover(ghost, newClientIp()).status, 200) << i;
    EXPECT_EQ(recover(ghost, newClientIp()).status, 429);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {account.email}), 5);
}

TEST(AuthRecover, ManyAddressesFromOneClientAre429) {
    const auto ip = newClientIp();
    for (int i = 0; i < 30; ++i) ASSERT_EQ(recover(newEmail("spray"), ip).status, 200) << i;
    auto r = recover(newEmail("spray"), ip);
    EXPECT_EQ(r.status, 429);
    EXPECT_EQ(r.json()["code"], "over_email_send_rate_limit");
}

TEST(AuthRecover, AnInvalidAddressIs400) {
    auto r = recover("nobody", newClientIp());
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json()["code"], "email_address_invalid");
}

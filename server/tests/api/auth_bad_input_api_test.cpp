// Members of the wrong JSON type, on every /auth/v1 body and token header that reads one: a clear
// 400 (or the usual 403 for a token), never a 500, and nothing written.
#include "api/auth_support.h"

#include "auth/secrets.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

void expectBadRequest(const HttpResult& r) {
    EXPECT_EQ(r.status, 400) << r.body;
    if (r.status == 400) {
        EXPECT_EQ(r.json()["code"], "validation_failed") << r.body;
    }
}

} // namespace

TEST(AuthBadInput, WronglyTypedMembersAre400AndChangeNothing) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("typed"), ip);
    const auto factorsBefore = countRows("SELECT COUNT(*) FROM mfa_factors");
    expectBadRequest(enrolRequest(session, {{"factor_type", 5}}));
    expectBadRequest(enrolRequest(session, {{"factor_type", "totp"}, {"friendly_name", 7}}));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors"), factorsBefore);

    expectBadRequest(postJson("/auth/v1/verify", {{"type", 5}, {"token", "x"}}, as(ip)));
    expectBadRequest(postJson("/auth/v1/verify", {{"type", "signup"}, {"token", 5}}, as(ip)));
    expectBadRequest(postJson("/auth/v1/signup", {{"email", newEmail("typed")}, {"password", 123456789}}, as(ip)));
    expectBadRequest(postJson("/auth/v1/token?grant_type=password", {{"email", 5}, {"password", "x"}}, as(ip)));
    expectBadRequest(putJson("/auth/v1/user", {{"data", "not an object"}}, session.headers()));
}

TEST(AuthBadInput, WronglyTypedAdminMembersAre400AndChangeNothing) {
    auto boss = createStaffAdmin(newClientIp());
    const std::string users = "/auth/v1/admin/users";
    const auto before = usersCount();
    expectBadRequest(postJson(users, {{"email", newEmail("typed")}, {"email_confirm", "yes"}}, boss.session.headers()));
    expectBadRequest(postJson("/auth/v1/admin/generate_link", {{"type", 1}, {"email", newEmail("typed")}}, boss.session.headers()));
    EXPECT_EQ(usersCount(), before);

    auto target = createUser("typed-target");
    expectBadRequest(putJson(users + "/" + target.id, {{"email_confirm", 1}}, boss.session.headers()));
    expectBadRequest(del(users + "/" + target.id, boss.session.headers(), {{"should_soft_delete", "yes"}}));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND deleted_at IS NULL", {target.id}), 1);
}

TEST(AuthBadInput, ATokenWhoseHeaderHasWronglyTypedMembersIs403) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("header"), ip);
    const std::string rest = session.accessToken.substr(session.accessToken.find('.'));
    for (const auto* header : {R"({"alg":1,"kid":"x"})", R"({"alg":"ES256","kid":7})", R"([1,2])", R"("ES256")"}) {
        const auto token = storefront::auth::base64Url(header) + rest;
        auto r = get("/auth/v1/user", as(ip, token));
        EXPECT_EQ(r.status, 403) << header << ": " << r.body;
    }
}

// Issue 32: the full name is a mail header's display name and a CSV cell: one line everywhere it is
// set (sign-up data, the account's own change), else 422 naming full_name.
TEST(AuthBadInput, AFullNameWithALineBreakIs422NamingIt) {
    const auto email = newEmail("one-line");
    const auto signup = postJson("/auth/v1/signup", {{"email", email}, {"password", "Kea-one-line-2024"},
                                                     {"data", {{"full_name", "Ana\r\nBcc: everyone@example.com"}}}},
                                 {{"X-Forwarded-For", newClientIp()}});
    EXPECT_EQ(signup.status, 422) << signup.body;
    EXPECT_NE(signup.body.find("full_name"), std::string::npos) << signup.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {email}), 0);
}

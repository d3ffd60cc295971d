// `storefront users create`: the real executable, on the harness's database, so the test server
// sees the users it makes.
#include "api/auth_support.h"

#include <Poco/String.h>
#include <gtest/gtest.h>

#include <optional>

using namespace testing_support;

namespace {

using Run = CommandRun;

// Runs `storefront users create ...` with `input` on standard input. Standard input is always a
// pipe: without input it is closed at once, like </dev/null (not a terminal, nothing to read), so
// the command prints a one-time link instead of setting a password.
Run usersCreate(const std::vector<std::string>& args, const std::optional<std::string>& input) {
    std::vector<std::string> all = {"users", "create"};
    all.insert(all.end(), args.begin(), args.end());
    return runStorefront(all,
                         {
                             {"STOREFRONT_DATABASE", env().server->config().database},
                             {"STOREFRONT_DATA_DIR", ::testing::TempDir() + "/users-" + storefront::db::newId()},
                             {"STOREFRONT_PUBLIC_URL", kPublicUrl},
                             {"STOREFRONT_TOTP_KEY", kTotpKey},
                             {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
                             {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
                             {"STOREFRONT_LOG_LEVEL", "warning"},
                         },
                         input.value_or(""));
}

} // namespace

TEST(UsersCommand, APipedPasswordMakesAConfirmedAdminWhoCanSignIn) {
    const auto email = newEmail("shelladmin");
    auto run = usersCreate({"--email", Poco::toUpper(email), "--admin"}, std::string("Kea-shell-2024\n"));
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("created admin " + email), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("Kea-shell-2024"), std::string::npos);
    EXPECT_EQ(run.out.find("https://"), std::string::npos) << "no link when a password was given: " << run.out;

    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ? AND email_confirmed_at IS NOT NULL", {email}), 1);
    auto r = signInRequest(email, "Kea-shell-2024", newClientIp());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(jwtClaims(r.json()["access_token"])["app_metadata"]["roles"], nlohmann::json::array({"admin"}));
    // An admin who still has to set up two-factor before the admin API answers.
    auto admin = get("/auth/v1/admin/users", as(newClientIp(), r.json()["access_token"]));
    EXPECT_EQ(admin.json()["code"], "mfa_enrollment_required");
    auto id = textColumn("SELECT CAST(id AS TEXT) FROM users WHERE email = ?", {email});
    ASSERT_EQ(id.size(), 1u);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'role_granted' AND user_id = ? AND ip = 'shell'", {id[0]}), 1);
}

TEST(UsersCommand, WithoutAPasswordItPrintsAOneTimeLinkToSetOne) {
    const auto email = newEmail("shelluser");
    auto run = usersCreate({"--email=" + email}, std::nullopt);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("created user " + email), std::string::npos) << run.out;
    auto start = run.out.find(kPublicUrl + "/auth/v1/verify?token=");
    ASSERT_NE(start, std::string::npos) << run.out;
    const auto link = run.out.substr(start, run.out.find('\n', start) - start);
    EXPECT_EQ(linkParam(link, "type"), "invite");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.email = ?", {email}), 0);

    const auto ip = newClientIp();
    auto followed = followLink(link, ip);
    ASSERT_EQ(followed.status, 303);
    auto to = redirectOf(followed);
    ASSERT_FALSE(to.fragment["access_token"].empty()) << followed.header("location");
    EXPECT_EQ(to.fragment["type"], "invite");
    ASSERT_EQ(putJson("/auth/v1/user", {{"password", "Kea-chosen-2024"}}, as(ip, to.fragment["access_token"])).status, 200);
    EXPECT_EQ(signInRequest(email, "Kea-chosen-2024", ip).status, 200);
    EXPECT_EQ(redirectOf(followLink(link, ip)).fragment["error_code"], "otp_expired");
}

TEST(UsersCommand, ADuplicateOrBadInputFailsWithAMessage) {
    auto existing = createUser("shelldup");
    const auto before = usersCount();
    auto duplicate = usersCreate({"--email", existing.email}, std::string("Kea-shell-2024\n"));
    EXPECT_NE(duplicate.exitCode, 0);
    EXPECT_NE(duplicate.err.find("already been registered"), std::string::npos) << duplicate.err;

    auto weak = usersCreate({"--email", newEmail("shellweak")}, std::string("qwerty\n"));
    EXPECT_NE(weak.exitCode, 0);
    EXPECT_NE(weak.err.find("weak"), std::string::npos) << weak.err;

    auto invalid = usersCreate({"--email", "not-an-email"}, std::nullopt);
    EXPECT_NE(invalid.exitCode, 0);
    EXPECT_NE(invalid.err.find("valid email"), std::string::npos) << invalid.err;

    auto usage = usersCreate({}, std::nullopt);
    EXPECT_NE(usage.exitCode, 0);
    EXPECT_NE(usage.err.find("usage:"), std::string::npos) << usage.err;
    EXPECT_EQ(usersCount(), before);
}

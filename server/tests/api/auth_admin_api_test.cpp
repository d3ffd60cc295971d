// The staff admin API: who gets in (admins only, with a verified factor, at aal2), and what it
// does (users: create, list, get, update, roles, delete; factors; invitations; generated links).
#include "api/auth_support.h"
#include "api/billing_support.h"

#include <Poco/String.h>
#include <gtest/gtest.h>

using namespace testing_support;

namespace {

const std::string kUsers = "/auth/v1/admin/users";

// A fresh staff admin at aal2 for each test: its own client address and session.
StaffAdmin admin() { return createStaffAdmin(newClientIp()); }

std::int64_t liveUsers() { return countRows("SELECT COUNT(*) FROM users WHERE deleted_at IS NULL"); }

std::int64_t audited(const std::string& event, const std::string& userId, const std::string& actorId) {
    return countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = ? AND user_id = ? AND actor_id = ?", {event, userId, actorId});
}

} // namespace

TEST(AuthAdmin, AUserWithoutTheAdminRoleIs403NotAdmin) {
    const auto ip = newClientIp();
    auto session = signIn(createUser("customer"), ip);
    auto r = get(kUsers, session.headers());
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.json()["code"], "not_admin");
    // A second factor does not make anyone an admin.
    enrolVerifiedFactor(session);
    EXPECT_EQ(get(kUsers, session.headers()).json()["code"], "not_admin");
    EXPECT_EQ(postJson(kUsers, {{"email", newEmail("x")}}, session.headers()).status, 403);
    EXPECT_EQ(get(kUsers, as(ip)).status, 401);
}

TEST(AuthAdmin, AnAdminWithoutAFactorMustEnrolFirst) {
    const auto ip = newClientIp();
    auto account = createUser("newadmin");
    grantAdmin(account.id);
    auto session = signIn(account, ip);
    EXPECT_EQ(jwtClaims(session.accessToken)["app_metadata"]["roles"], nlohmann::json::array({"admin"}));
    auto r = get(kUsers, session.headers());
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.json()["code"], "mfa_enrollment_required");
    // Enrolling is allowed at aal1, and opens the admin API at aal2.
    enrolVerifiedFactor(session);
    EXPECT_EQ(get(kUsers, session.headers()).status, 200);
}

TEST(AuthAdmin, AnAdminWithAFactorNeedsAal2) {
    auto boss = admin();
    auto aal1 = signIn(boss.account, boss.session.ip);
    auto r = get(kUsers, aal1.headers());
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.json()["code"], "insufficient_aal");
    EXPECT_EQ(get(kUsers + "/" + boss.account.id, aal1.headers()).status, 403);
    stepUp(aal1, boss.factor);
    EXPECT_EQ(get(kUsers, aal1.headers()).status, 200);
}

TEST(AuthAdmin, ListsUsersPageByPageWithTotalAndLinks) {
    auto boss = admin();
    createUser("listed");
    createUser("listed");
    const auto total = liveUsers();
    auto r = get(kUsers + "?page=1&per_page=2", boss.session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["users"].size(), 2u);
    EXPECT_EQ(r.json()["aud"], "authenticated");
    EXPECT_EQ(r.header("x-total-count"), std::to_string(total));
    const auto last = (total + 1) / 2;
    const auto link = r.header("link");
    EXPECT_NE(link.find("</auth/v1/admin/users?page=2&per_page=2>; rel=\"next\""), std::string::npos) << link;
    EXPECT_NE(link.find("</auth/v1/admin/users?page=" + std::to_string(last) + "&per_page=2>; rel=\"last\""), std::string::npos) << link;
    // Newest first.
    EXPECT_TRUE(r.json()["users"][0]["email"].get<std::string>().starts_with("listed-")) << r.body;

    auto lastPage = get(kUsers + "?page=" + std::to_string(last) + "&per_page=2", boss.session.headers());
    ASSERT_EQ(lastPage.status, 200);
    EXPECT_EQ(lastPage.header("link").find("rel=\"next\""), std::string::npos) << lastPage.header("link");
    EXPECT_NE(lastPage.header("link").find("rel=\"last\""), std::string::npos);
    EXPECT_GE(lastPage.json()["users"].size(), 1u);

    auto everyone = get(kUsers + "?per_page=1000", boss.session.headers());
    EXPECT_EQ(static_cast<std::int64_t>(everyone.json()["users"].size()), std::min<std::int64_t>(total, 1000));
    EXPECT_EQ(get(kUsers + "?page=0", boss.session.headers()).status, 400);
    EXPECT_EQ(get(kUsers + "?per_page=many", boss.session.headers()).status, 400);
}

TEST(AuthAdmin, CreatesAndGetsUsers) {
    auto boss = admin();
    const auto email = newEmail("created");
    auto r = postJson(kUsers,
                      {{"email", email}, {"password", "Kea-nest-2024"}, {"email_confirm", true}, {"user_metadata", {{"full_name", "Hemi"}}}},
                      boss.session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string id = r.json()["id"];
    EXPECT_EQ(r.json()["email"], email);
    EXPECT_TRUE(r.json()["email_confirmed_at"].is_string());
    EXPECT_EQ(r.json()["user_metadata"]["full_name"], "Hemi");
    EXPECT_EQ(audited("user_created", id, boss.account.id), 1);
    EXPECT_EQ(signInRequest(email, "Kea-nest-2024", newClientIp()).status, 200);

    auto got = get(kUsers + "/" + id, boss.session.headers());
    ASSERT_EQ(got.status, 200);
    EXPECT_EQ(got.json()["id"], id);
    EXPECT_EQ(got.json()["email"], email);

    auto duplicate = postJson(kUsers, {{"email", Poco::toUpper(email)}}, boss.session.headers());
    EXPECT_EQ(duplicate.status, 422) << duplicate.body;
    EXPECT_EQ(duplicate.json()["code"], "email_exists");
    const auto before = usersCount();
    EXPECT_EQ(postJson(kUsers, {{"email", "nope"}}, boss.session.headers()).status, 400);
    EXPECT_EQ(postJson(kUsers, {{"email", newEmail("weak")}, {"password", "qwerty"}}, boss.session.headers()).status, 422);
    EXPECT_EQ(postJson(kUsers, {{"email", newEmail("role")}, {"app_metadata", {{"roles", {"owner"}}}}}, boss.session.headers()).status,
              400);
    EXPECT_EQ(usersCount(), before);

    // Without a password or confirmation: an unconfirmed user who cannot sign in yet.
    auto bare = postJson(kUsers, {{"email", newEmail("bare")}}, boss.session.headers());
    ASSERT_EQ(bare.status, 200);
    EXPECT_TRUE(bare.json()["email_confirmed_at"].is_null());
}

TEST(AuthAdmin, UnknownOrMalformedIdsAre404) {
    auto boss = admin();
    for (const auto& id : {std::string("not-a-uuid"), storefront::db::newId(), std::string("00000000-0000-0000-0000-00000000000g")}) {
        EXPECT_EQ(get(kUsers + "/" + id, boss.session.headers()).status, 404) << id;
        EXPECT_EQ(putJson(kUsers + "/" + id, {{"user_metadata", {{"a", 1}}}}, boss.session.headers()).status, 404) << id;
        EXPECT_EQ(del(kUsers + "/" + id, boss.session.headers()).status, 404) << id;
        EXPECT_EQ(get(kUsers + "/" + id + "/factors", boss.session.headers()).status, 404) << id;
        EXPECT_EQ(del(kUsers + "/" + id + "/factors/" + storefront::db::newId(), boss.session.headers()).status, 404) << id;
    }
    auto r = get(kUsers + "/" + storefront::db::newId(), boss.session.headers());
    EXPECT_EQ(r.json()["code"], "user_not_found");
}

TEST(AuthAdmin, RolesAreGrantedAndRevokedThroughAppMetadataAndAudited) {
    auto boss = admin();
    auto staff = createUser("staff");
    auto granted = putJson(kUsers + "/" + staff.id, {{"app_metadata", {{"roles", {"admin"}}, {"team", "support"}}}}, boss.session.headers());
    ASSERT_EQ(granted.status, 200) << granted.body;
    EXPECT_EQ(granted.json()["app_metadata"]["roles"], nlohmann::json::array({"admin"}));
    EXPECT_EQ(granted.json()["app_metadata"]["team"], "support");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ? AND role = 'admin'", {staff.id}), 1);
    EXPECT_EQ(audited("role_granted", staff.id, boss.account.id), 1);
    auto session = signIn(staff, newClientIp());
    EXPECT_EQ(jwtClaims(session.accessToken)["app_metadata"]["roles"], nlohmann::json::array({"admin"}));
    EXPECT_EQ(get(kUsers, session.headers()).json()["code"], "mfa_enrollment_required"); // an admin now
    // Granting again changes nothing.
    ASSERT_EQ(putJson(kUsers + "/" + staff.id, {{"app_metadata", {{"roles", {"admin"}}}}}, boss.session.headers()).status, 200);
    EXPECT_EQ(audited("role_granted", staff.id, boss.account.id), 1);

    auto revoked = putJson(kUsers + "/" + staff.id, {{"app_metadata", {{"roles", nlohmann::json::array()}}}}, boss.session.headers());
    ASSERT_EQ(revoked.status, 200) << revoked.body;
    EXPECT_EQ(revoked.json()["app_metadata"]["roles"], nlohmann::json::array());
    EXPECT_EQ(revoked.json()["app_metadata"]["team"], "support");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ?", {staff.id}), 0);
    EXPECT_EQ(audited("role_revoked", staff.id, boss.account.id), 1);
    EXPECT_EQ(get(kUsers, session.headers()).json()["code"], "not_admin"); // at once, not at the next token

    EXPECT_EQ(putJson(kUsers + "/" + staff.id, {{"app_metadata", {{"roles", {"superuser"}}}}}, boss.session.headers()).status, 400);
    auto self = putJson(kUsers + "/" + boss.account.id, {{"app_metadata", {{"roles", nlohmann::json::array()}}}}, boss.session.headers());
    EXPECT_EQ(self.status, 422) << self.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ?", {boss.account.id}), 1);
}

TEST(AuthAdmin, UpdatesPasswordEmailMetadataAndBans) {
    auto boss = admin();
    auto user = createUser("managed");
    const auto ip = newClientIp();
    auto session = signIn(user, ip);

    auto meta = putJson(kUsers + "/" + user.id, {{"user_metadata", {{"full_name", "Wiremu"}}}}, boss.session.headers());
    ASSERT_EQ(meta.status, 200) << meta.body;
    EXPECT_EQ(meta.json()["user_metadata"], nlohmann::json({{"full_name", "Wiremu"}}));
    EXPECT_EQ(userRequest(session).status, 200); // metadata ends no session

    auto password = putJson(kUsers + "/" + user.id, {{"password", "Tui-song-2024"}}, boss.session.headers());
    ASSERT_EQ(password.status, 200);
    EXPECT_EQ(userRequest(session).json()["code"], "session_not_found");
    EXPECT_EQ(signInRequest(user.email, "Tui-song-2024", ip).status, 200);

    const auto address = newEmail("moved");
    auto email = putJson(kUsers + "/" + user.id, {{"email", address}}, boss.session.headers());
    ASSERT_EQ(email.status, 200);
    EXPECT_EQ(email.json()["email"], address);
    EXPECT_EQ(signInRequest(address, "Tui-song-2024", ip).status, 200);

    auto ban = putJson(kUsers + "/" + user.id, {{"ban_duration", "24h"}}, boss.session.headers());
    ASSERT_EQ(ban.status, 200) << ban.body;
    EXPECT_TRUE(ban.json()["banned_until"].is_string());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE user_id = ?", {user.id}), 0);
    EXPECT_EQ(signInRequest(address, "Tui-song-2024", ip).json()["code"], "user_banned");
    EXPECT_EQ(putJson(kUsers + "/" + user.id, {{"ban_duration", "forever"}}, boss.session.headers()).status, 400);
    ASSERT_EQ(putJson(kUsers + "/" + user.id, {{"ban_duration", "none"}}, boss.session.headers()).status, 200);
    EXPECT_EQ(signInRequest(address, "Tui-song-2024", ip).status, 200);
}

TEST(AuthAdmin, SoftDeleteScrubsTheEmailSoItCanSignUpAgain) {
    auto boss = admin();
    auto user = createUser("leaving");
    const auto ip = newClientIp();
    auto session = signIn(user, ip);
    auto r = del(kUsers + "/" + user.id, boss.session.headers(), {{"should_soft_delete", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["id"], user.id);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND deleted_at IS NOT NULL AND email IS NULL "
                        "AND encrypted_password IS NULL",
                        {user.id}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE id = ? AND email IS NULL", {user.id}), 1);
    EXPECT_EQ(userRequest(session).json()["code"], "session_not_found");
    EXPECT_EQ(get(kUsers + "/" + user.id, boss.session.headers()).status, 404);
    EXPECT_EQ(signInRequest(user.email, user.password, ip).json()["code"], "invalid_credentials");

    auto again = postJson("/auth/v1/signup", {{"email", user.email}, {"password", "Kea-back-2024"}}, as(ip));
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_NE(again.json()["id"], user.id);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ? AND id = ?", {user.email, again.json()["id"]}), 1);
    EXPECT_FALSE(waitForLink(user.email, "signup").empty());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'user_deleted' AND actor_id = ?", {boss.account.id}), 1);
}

TEST(AuthAdmin, HardDeleteRemovesTheUserAndAdminsCannotDeleteThemselves) {
    auto boss = admin();
    auto user = createUser("gone");
    auto r = del(kUsers + "/" + user.id, boss.session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ?", {user.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE id = ?", {user.id}), 0);
    EXPECT_EQ(del(kUsers + "/" + user.id, boss.session.headers()).status, 404);
    auto self = del(kUsers + "/" + boss.account.id, boss.session.headers());
    EXPECT_EQ(self.status, 422) << self.body;
    EXPECT_EQ(userRequest(boss.session).status, 200);
}

TEST(AuthAdmin, ListsAndDeletesAUsersFactors) {
    auto boss = admin();
    auto user = createUser("lostphone");
    auto session = signIn(user, newClientIp());
    auto factor = enrolVerifiedFactor(session);
    auto list = get(kUsers + "/" + user.id + "/factors", boss.session.headers());
    ASSERT_EQ(list.status, 200) << list.body;
    ASSERT_EQ(list.json().size(), 1u);
    EXPECT_EQ(list.json()[0]["id"], factor.id);
    EXPECT_EQ(list.json()[0]["status"], "verified");
    EXPECT_FALSE(list.json()[0].contains("secret"));
    EXPECT_EQ(list.body.find(factor.secret), std::string::npos);

    auto removed = del(kUsers + "/" + user.id + "/factors/" + factor.id, boss.session.headers());
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(removed.json()["id"], factor.id);
    EXPECT_EQ(get(kUsers + "/" + user.id + "/factors", boss.session.headers()).json(), nlohmann::json::array());
    EXPECT_EQ(audited("mfa_unenrolled", user.id, boss.account.id), 1);
    EXPECT_EQ(del(kUsers + "/" + user.id + "/factors/" + factor.id, boss.session.headers()).status, 404);
    EXPECT_EQ(del(kUsers + "/" + user.id + "/factors/not-a-factor", boss.session.headers()).status, 404);
    // A factor of one user cannot be deleted through another.
    auto other = signIn(createUser("keeper"), newClientIp());
    auto kept = enrolVerifiedFactor(other);
    EXPECT_EQ(del(kUsers + "/" + user.id + "/factors/" + kept.id, boss.session.headers()).status, 404);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {kept.id}), 1);
}

TEST(AuthAdmin, InvitesMailALinkThatSignsIn) {
    auto boss = admin();
    const auto email = newEmail("invited");
    auto r = postJson("/auth/v1/invite", {{"email", email}, {"data", {{"full_name", "Ana"}}}}, boss.session.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.json()["invited_at"].is_string());
    EXPECT_TRUE(r.json()["email_confirmed_at"].is_null());
    EXPECT_EQ(audited("user_invited", r.json()["id"], boss.account.id), 1);
    auto link = waitForLink(email, "invite");
    const auto ip = newClientIp();
    auto followed = followLink(link, ip);
    ASSERT_EQ(followed.status, 303);
    auto to = redirectOf(followed);
    EXPECT_EQ(to.fragment["type"], "invite");
    ASSERT_FALSE(to.fragment["access_token"].empty());
    auto me = get("/auth/v1/user", as(ip, to.fragment["access_token"]));
    ASSERT_EQ(me.status, 200);
    EXPECT_EQ(me.json()["email"], email);
    EXPECT_TRUE(me.json()["email_confirmed_at"].is_string());
    // The invited person chooses a password and can then sign in with it.
    ASSERT_EQ(putJson("/auth/v1/user", {{"password", "Kea-invited-24"}}, as(ip, to.fragment["access_token"])).status, 200);
    EXPECT_EQ(signInRequest(email, "Kea-invited-24", ip).status, 200);
    EXPECT_EQ(redirectOf(followLink(link, ip)).fragment["error_code"], "otp_expired");

    auto again = postJson("/auth/v1/invite", {{"email", email}}, boss.session.headers());
    EXPECT_EQ(again.status, 422);
    EXPECT_EQ(again.json()["code"], "email_exists");
    auto customer = signIn(createUser("notstaff"), ip);
    EXPECT_EQ(postJson("/auth/v1/invite", {{"email", newEmail("x")}}, customer.headers()).status, 403);
}

TEST(AuthAdmin, GeneratedLinksWork) {
    auto boss = admin();
    const auto ip = newClientIp();
    auto user = createUser("linked");
    auto recovery = postJson("/auth/v1/admin/generate_link", {{"type", "recovery"}, {"email", user.email}}, boss.session.headers());
    ASSERT_EQ(recovery.status, 200) << recovery.body;
    EXPECT_EQ(recovery.json()["verification_type"], "recovery");
    EXPECT_EQ(recovery.json()["id"], user.id);
    const std::string action = recovery.json()["action_link"];
    EXPECT_TRUE(action.starts_with(kPublicUrl + "/auth/v1/verify?token=")) << action;
    auto to = redirectOf(followLink(action, ip));
    EXPECT_EQ(to.fragment["type"], "recovery");
    EXPECT_FALSE(to.fragment["access_token"].empty());
    EXPECT_TRUE(mailTo(user.email).empty()); // generated, not sent

    const auto email = newEmail("generated");
    auto signup = postJson("/auth/v1/admin/generate_link", {{"type", "signup"}, {"email", email}, {"password", "Kea-nest-2024"}},
                           boss.session.headers());
    ASSERT_EQ(signup.status, 200) << signup.body;
    EXPECT_EQ(signInRequest(email, "Kea-nest-2024", ip).json()["code"], "email_not_confirmed");
    EXPECT_EQ(redirectOf(followLink(signup.json()["action_link"], ip)).fragment["type"], "signup");
    EXPECT_EQ(signInRequest(email, "Kea-nest-2024", ip).status, 200);

    auto invite = postJson("/auth/v1/admin/generate_link", {{"type", "invite"}, {"email", newEmail("geninvite")}}, boss.session.headers());
    ASSERT_EQ(invite.status, 200) << invite.body;
    EXPECT_EQ(redirectOf(followLink(invite.json()["action_link"], ip)).fragment["type"], "invite");

    // A magic link (GoTrue's type) signs an existing user in, with amr magiclink; none for an
    // unknown address, and no other type is made.
    auto magic = postJson("/auth/v1/admin/generate_link", {{"type", "magiclink"}, {"email", user.email}}, boss.session.headers());
    ASSERT_EQ(magic.status, 200) << magic.body;
    EXPECT_EQ(magic.json()["verification_type"], "magiclink");
    auto signedIn = redirectOf(followLink(magic.json()["action_link"], ip));
    EXPECT_EQ(signedIn.fragment["type"], "magiclink");
    EXPECT_EQ(jwtClaims(signedIn.fragment["access_token"])["amr"][0]["method"], "magiclink");
    EXPECT_EQ(postJson("/auth/v1/admin/generate_link", {{"type", "magiclink"}, {"email", newEmail("none")}}, boss.session.headers()).status,
              404);
    EXPECT_EQ(postJson("/auth/v1/admin/generate_link", {{"type", "email_change"}, {"email", user.email}}, boss.session.headers()).status,
              400);
    EXPECT_EQ(postJson("/auth/v1/admin/generate_link", {{"type", "recovery"}, {"email", newEmail("none")}}, boss.session.headers()).status,
              404);
    EXPECT_EQ(postJson("/auth/v1/admin/generate_link", {{"type", "invite"}, {"email", user.email}}, boss.session.headers()).status, 422);
}

TEST(AuthAdmin, AUserWithSubscriptionsIsSoftDeletedNotDeletedOutright) {
    auto boss = admin();
    auto user = createUser("subscribed-leaver");
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    execSql("INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, created_at, updated_at) "
            "VALUES (?, ?, ?, 'active', 'manual', ?, ?)",
            {storefront::db::newId(), user.id, product.id, testClock().nowTimestamp(), testClock().nowTimestamp()});

    auto outright = del(kUsers + "/" + user.id, boss.session.headers(), {{"should_soft_delete", false}});
    EXPECT_EQ(outright.status, 409) << outright.body;
    EXPECT_EQ(outright.json()["code"], "user_has_subscriptions");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND deleted_at IS NULL", {user.id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'user_deleted' AND actor_id = ?", {boss.account.id}), 0);

    auto soft = del(kUsers + "/" + user.id, boss.session.headers(), {{"should_soft_delete", true}});
    EXPECT_EQ(soft.status, 200) << soft.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE user_id = ?", {user.id}), 1);
}

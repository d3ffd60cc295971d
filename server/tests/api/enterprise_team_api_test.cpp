// /api/v1/enterprise: the account admin's team. Who may use it, the spec's messages, the member
// limit under 50 concurrent adds, deactivated accounts, and bad input that changes nothing.
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace testing_support;

TEST(EnterpriseTeamApi, EachRoleGetsOnlyWhatIsTheirs) {
    auto team = createTeam("team-roles");
    Account memberUser;
    const auto memberId = addNewMember(team, &memberUser);
    auto member = signIn(memberUser, newClientIp());
    auto other = createTeam("team-roles-other");
    auto customer = signIn(createUser("team-roles-customer"), newClientIp());
    const auto outsider = createUser("team-roles-outsider");

    // Visitors sign in first.
    EXPECT_EQ(getJson("/api/v1/enterprise", as(newClientIp())).status, 401);
    EXPECT_EQ(postJson("/api/v1/enterprise/members", {{"email", outsider.email}}, as(newClientIp())).status, 401);
    EXPECT_EQ(del("/api/v1/enterprise/members/" + memberId, as(newClientIp())).status, 401);

    // A customer without an account, and a member who is not the admin: 404, never a hint.
    for (const auto& headers : {customer.headers(), member.headers()}) {
        auto res = getJson("/api/v1/enterprise", headers);
        EXPECT_EQ(res.status, 404);
        EXPECT_EQ(res.json()["code"], "enterprise_account_not_found");
        EXPECT_EQ(postJson("/api/v1/enterprise/members", {{"email", outsider.email}}, headers).status, 404);
        EXPECT_EQ(del("/api/v1/enterprise/members/" + memberId, headers).status, 404);
    }
    // Another account's admin: this account's member id is not theirs to see.
    auto probe = del("/api/v1/enterprise/members/" + memberId, other.session.headers());
    EXPECT_EQ(probe.status, 404);
    EXPECT_EQ(probe.json()["code"], "member_not_found");
    EXPECT_EQ(memberCount(team.accountId), 2);
    EXPECT_EQ(memberCount(other.accountId), 1);

    // Staff are not the account's admin either.
    EXPECT_EQ(getJson("/api/v1/enterprise", enterpriseStaff().session.headers()).status, 404);

    // The account's admin sees the team, licences and usage.
    auto res = getJson("/api/v1/enterprise", team.session.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["account"]["id"], team.accountId);
    EXPECT_EQ(res.json()["account"]["member_count"], 2);
    EXPECT_EQ(res.json()["account"]["max_licenses"], 5);
    ASSERT_EQ(res.json()["members"].size(), 2u);
    EXPECT_EQ(res.json()["members"][1]["email"], memberUser.email);
    EXPECT_EQ(res.header("cache-control"), "no-store");
}

TEST(EnterpriseTeamApi, AddingMembersAnswersTheSpecsMessages) {
    auto team = createTeam("team-add", 3);
    const auto first = createUser("team-add-a");
    auto added = addMember(team, "  " + first.email.substr(0, 1) + first.email.substr(1) + " ");
    ASSERT_EQ(added.status, 201) << added.body;
    EXPECT_EQ(added.json()["member"]["role"], "member");
    EXPECT_EQ(added.json()["member"]["email"], first.email);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM enterprise_members WHERE user_id = ? AND added_by = ?", {first.id, team.admin.id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'enterprise_member.added' AND actor_id = ?", {team.admin.id}),
              1);

    auto unknown = addMember(team, newEmail("nobody"));
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "user_not_found");
    EXPECT_EQ(unknown.json()["message"], "User not found. They must create an account first.");

    auto again = addMember(team, first.email);
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "already_member");
    auto self = addMember(team, team.admin.email);
    EXPECT_EQ(self.status, 409);
    EXPECT_EQ(self.json()["code"], "already_member");

    addNewMember(team); // three of three
    auto full = addMember(team, createUser("team-add-late").email);
    EXPECT_EQ(full.status, 409);
    EXPECT_EQ(full.json()["code"], "license_limit_reached");
    EXPECT_EQ(full.json()["message"], "License limit reached (3 licenses)");

    for (const nlohmann::json& body : {nlohmann::json::object(), nlohmann::json{{"email", ""}}, nlohmann::json{{"email", "x@"}},
                                       nlohmann::json{{"email", "a b@example.nz"}}, nlohmann::json{{"email", 12}}}) {
        auto res = postJson("/api/v1/enterprise/members", body, team.session.headers());
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed");
        EXPECT_TRUE(res.json()["fields"].contains("email")) << res.body;
    }
    EXPECT_EQ(memberCount(team.accountId), 3);
}

TEST(EnterpriseTeamApi, RemovingAMemberFreesTheirPlaceAndTheAdminStays) {
    auto team = createTeam("team-remove", 2);
    const auto memberId = addNewMember(team);
    EXPECT_EQ(addMember(team, createUser("team-remove-late").email).status, 409);

    auto removed = del("/api/v1/enterprise/members/" + memberId, team.session.headers());
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(memberCount(team.accountId), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'enterprise_member.removed' AND target_id = ?", {memberId}), 1);
    EXPECT_EQ(del("/api/v1/enterprise/members/" + memberId, team.session.headers()).status, 404);
    EXPECT_EQ(addMember(team, createUser("team-remove-next").email).status, 201);

    const auto adminMemberId =
        textColumn("SELECT CAST(id AS TEXT) FROM enterprise_members WHERE enterprise_account_id = ? AND role = 'admin'", {team.accountId});
    ASSERT_EQ(adminMemberId.size(), 1u);
    auto refused = del("/api/v1/enterprise/members/" + adminMemberId[0], team.session.headers());
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.json()["code"], "cannot_remove_admin");
    EXPECT_EQ(del("/api/v1/enterprise/members/not-a-uuid", team.session.headers()).status, 404);
    EXPECT_EQ(del("/api/v1/enterprise/members/" + storefront::db::newId(), team.session.headers()).status, 404);
    EXPECT_EQ(memberCount(team.accountId), 2);
}

TEST(EnterpriseTeamApi, ADeactivatedAccountCannotAddMembers) {
    auto team = createTeam("team-inactive");
    addNewMember(team);
    ASSERT_EQ(patchJson("/api/v1/admin/enterprise-accounts/" + team.accountId, {{"is_active", false}}, enterpriseStaff().session.headers()).status,
              200);
    auto res = addMember(team, createUser("team-inactive-new").email);
    EXPECT_EQ(res.status, 409);
    EXPECT_EQ(res.json()["code"], "enterprise_account_inactive");
    EXPECT_EQ(memberCount(team.accountId), 2);
    // Its admin still sees it, as inactive.
    auto shown = getJson("/api/v1/enterprise", team.session.headers());
    ASSERT_EQ(shown.status, 200);
    EXPECT_EQ(shown.json()["account"]["is_active"], false);
}

TEST(EnterpriseTeamApi, FiftyConcurrentAddsFillExactlyTheFreePlaces) {
    // The admin holds one of six places: five are free.
    auto team = createTeam("team-race", 6);
    auto product = createLicensableProduct();
    const auto licenceId = addLicence(team.accountId, product.id, 3); // the admin takes one seat
    std::vector<Account> people;
    for (int i = 0; i < 50; ++i) people.push_back(createUser("racer"));

    std::atomic<int> created{0}, limited{0}, other{0};
    std::vector<std::thread> threads;
    for (const auto& person : people)
        threads.emplace_back([&, email = person.email] {
            auto res = addMember(team, email);
            if (res.status == 201) ++created;
            else if (res.status == 409 && res.json()["code"] == "license_limit_reached") ++limited;
            else ++other;
        });
    for (auto& t : threads) t.join();

    EXPECT_EQ(created.load(), 5);
    EXPECT_EQ(limited.load(), 45);
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(memberCount(team.accountId), 6);
    EXPECT_EQ(usedCount(licenceId), 3);
    EXPECT_EQ(seatRows(licenceId), 3);
}

// /api/v1/admin/enterprise-accounts: staff create and run enterprise accounts and their licences. Every
// role's answer, the invitation of a new admin, lists, details, changes, and bad input that
// changes nothing.
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace testing_support;

namespace {

std::int64_t accountsNamed(const std::string& company) {
    return countRows("SELECT COUNT(*) FROM enterprise_accounts WHERE company_name = ?", {company});
}

std::int64_t auditRows(const std::string& action, const std::string& targetId) {
    return countRows("SELECT COUNT(*) FROM audit_log WHERE action = ? AND target_id = ?", {action, targetId});
}


} // namespace

TEST(EnterpriseStaffApi, OnlyStaffPastTheTwoFactorStepMayUseIt) {
    auto team = createTeam("roles");
    Account memberUser;
    addNewMember(team, &memberUser);
    auto member = signIn(memberUser, newClientIp());
    auto other = createTeam("roles-other");
    auto customer = signIn(createUser("roles-customer"), newClientIp());
    // Staff with a factor who signed in again: aal1 until they step up.
    auto aal1 = signIn(enterpriseStaff().account, newClientIp());

    const std::string company = unique("Refused ");
    const nlohmann::json create = {{"company_name", company}, {"billing_email", "b@example.nz"}, {"admin_email", newEmail("x")}};
    const std::string one = "/api/v1/admin/enterprise-accounts/" + team.accountId;
    struct Caller {
        const char* name;
        Headers headers;
        int status;
    };
    const std::vector<Caller> callers = {{"visitor", as(newClientIp()), 401},
                                         {"customer", customer.headers(), 403},
                                         {"member", member.headers(), 403},
                                         {"another account's admin", other.session.headers(), 403},
                                         {"the account's admin", team.session.headers(), 403},
                                         {"staff at aal1 with a factor", aal1.headers(), 403}};
    for (const auto& c : callers) {
        EXPECT_EQ(getJson("/api/v1/admin/enterprise-accounts", c.headers).status, c.status) << c.name;
        EXPECT_EQ(getJson(one, c.headers).status, c.status) << c.name;
        EXPECT_EQ(postJson("/api/v1/admin/enterprise-accounts", create, c.headers).status, c.status) << c.name;
        EXPECT_EQ(patchJson(one, {{"is_active", false}}, c.headers).status, c.status) << c.name;
        EXPECT_EQ(postJson(one + "/licences", {{"product_id", storefront::db::newId()}, {"quantity", 1}}, c.headers).status, c.status)
            << c.name;
    }
    auto denied = getJson("/api/v1/admin/enterprise-accounts", customer.headers());
    EXPECT_EQ(denied.json()["message"], "Access denied. Admin privileges required.");
    EXPECT_EQ(accountsNamed(company), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM enterprise_accounts WHERE id = ? AND is_active = TRUE", {team.accountId}), 1);

    EXPECT_EQ(getJson("/api/v1/admin/enterprise-accounts", staff()).status, 200);
    EXPECT_EQ(getJson(one, staff()).status, 200);
}

TEST(EnterpriseStaffApi, ANewAdminEmailGetsAPreconfirmedUserAndAnInvitationToSetAPassword) {
    const std::string email = newEmail("new-enterprise-admin");
    const std::string company = unique("Invited Co ");
    auto res = postJson("/api/v1/admin/enterprise-accounts",
                        {{"company_name", company}, {"billing_email", "Accounts@Example.nz"}, {"admin_email", email}}, staff());
    ASSERT_EQ(res.status, 201) << res.body;
    auto body = res.json();
    EXPECT_EQ(body["admin_invited"], true);
    EXPECT_EQ(body["account"]["company_name"], company);
    EXPECT_EQ(body["account"]["billing_email"], "accounts@example.nz");
    EXPECT_EQ(body["account"]["admin"]["email"], email);
    EXPECT_EQ(body["account"]["is_active"], true);
    EXPECT_EQ(body["account"]["max_licenses"], 5);
    EXPECT_EQ(body["account"]["user_count"], 1);
    EXPECT_EQ(body["account"]["license_count"], 0);
    ASSERT_EQ(body["members"].size(), 1u);
    EXPECT_EQ(body["members"][0]["email"], email);
    EXPECT_EQ(body["members"][0]["role"], "admin");
    const std::string accountId = body["account"]["id"];
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ? AND email_confirmed_at IS NOT NULL AND encrypted_password IS NULL",
                        {email}),
              1);
    EXPECT_EQ(auditRows("enterprise_account.created", accountId), 1);

    // The invitation: a one-time link that signs them in, then they choose a password.
    const auto link = waitForLink(email, "invite");
    EXPECT_EQ(linkParam(link, "redirect_to"), kPublicUrl + "/enterprise");
    auto mails = mailTo(email);
    ASSERT_EQ(mails.size(), 1u);
    EXPECT_NE(mails[0].find(company), std::string::npos);
    const auto ip = newClientIp();
    auto followed = followLink(link, ip);
    ASSERT_EQ(followed.status, 303) << followed.body;
    auto redirect = redirectOf(followed);
    ASSERT_TRUE(redirect.fragment.contains("access_token")) << followed.header("location");
    auto set = putJson("/auth/v1/user", {{"password", "Tui-enterprise-77"}}, as(ip, redirect.fragment["access_token"]));
    ASSERT_EQ(set.status, 200) << set.body;
    // The link is spent.
    EXPECT_NE(redirectOf(followLink(link, newClientIp())).fragment.count("error_code"), 0u);

    auto session = signIn({"", email, "Tui-enterprise-77"}, newClientIp());
    auto team = getJson("/api/v1/enterprise", session.headers());
    ASSERT_EQ(team.status, 200) << team.body;
    EXPECT_EQ(team.json()["account"]["id"], accountId);
}

// Several staff (or one double click) creating accounts for the same new admin at once: on
// PostgreSQL each request checks for the user before inserting and none sees the others' row, so
// all but one lose on the unique email. They must get a 4xx (409), never a 500, and leave nothing
// behind: one user, one account, one invitation.
TEST(EnterpriseStaffApi, AccountsCreatedAtOnceForTheSameNewAdminMakeOneAccount) {
    const std::string email = newEmail("raced-admin");
    const std::string company = unique("Raced Co ");
    constexpr int kRequests = 8;
    std::atomic<int> created{0}, conflicts{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    std::mutex failuresMutex;
    std::vector<std::string> failures;
    for (int i = 0; i < kRequests; ++i) {
        threads.emplace_back([&, headers = staff()] {
            while (!go) std::this_thread::yield();
            auto res = postJson("/api/v1/admin/enterprise-accounts",
                                {{"company_name", company}, {"billing_email", "b@example.nz"}, {"admin_email", email}}, headers);
            if (res.status == 201) {
                ++created;
            } else if (res.status == 409 && (res.json()["code"] == "already_enterprise_admin" || res.json()["code"] == "conflict")) {
                ++conflicts;
            } else {
                std::lock_guard lock(failuresMutex);
                failures.push_back(std::to_string(res.status) + " " + res.body);
            }
        });
    }
    go = true;
    for (auto& t : threads) t.join();
    EXPECT_TRUE(failures.empty()) << failures.front();
    EXPECT_EQ(created, 1);
    EXPECT_EQ(conflicts, kRequests - 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {email}), 1);
    EXPECT_EQ(accountsNamed(company), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'enterprise_account.created' AND target_id IN "
                        "(SELECT CAST(id AS TEXT) FROM enterprise_accounts WHERE company_name = ?)",
                        {company}),
              1);
    waitForLink(email, "invite");
    EXPECT_EQ(mailTo(email).size(), 1u);
    // Sent again, a losing request gets the ordinary answer.
    auto again = postJson("/api/v1/admin/enterprise-accounts",
                          {{"company_name", company}, {"billing_email", "b@example.nz"}, {"admin_email", email}}, staff());
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_EQ(again.json()["code"], "already_enterprise_admin");
}

TEST(EnterpriseStaffApi, AnExistingUserBecomesTheAdminWithoutAnInvitation) {
    auto user = createUser("existing-admin");
    auto res = postJson("/api/v1/admin/enterprise-accounts",
                        {{"company_name", unique("Existing ")}, {"billing_email", "b@example.nz"}, {"admin_email", user.email}},
                        staff());
    ASSERT_EQ(res.status, 201) << res.body;
    EXPECT_EQ(res.json()["admin_invited"], false);
    EXPECT_EQ(res.json()["account"]["admin"]["id"], user.id);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {user.email}), 0);
    auto session = signIn(user, newClientIp());
    EXPECT_EQ(getJson("/api/v1/enterprise", session.headers()).status, 200);

    // One account per admin: a second is refused and nothing is written.
    const auto second = unique("Second ");
    auto again = postJson("/api/v1/admin/enterprise-accounts",
                          {{"company_name", second}, {"billing_email", "b@example.nz"}, {"admin_email", user.email}}, staff());
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "already_enterprise_admin");
    EXPECT_EQ(accountsNamed(second), 0);
}

TEST(EnterpriseStaffApi, BadCreateInputIsA422NamingEachFieldAndWritesNothing) {
    const auto users = usersCount();
    const std::string company = unique("Bad ");
    struct Case {
        nlohmann::json body;
        std::vector<std::string> fields;
    };
    const std::vector<Case> cases = {
        {nlohmann::json::object(), {"company_name", "billing_email", "admin_email"}},
        {{{"company_name", company}, {"billing_email", "not-an-email"}, {"admin_email", "a@example.nz"}}, {"billing_email"}},
        {{{"company_name", company}, {"billing_email", "b@example.nz"}, {"admin_email", "two@@example"}}, {"admin_email"}},
        {{{"company_name", "   "}, {"billing_email", "b@example.nz"}, {"admin_email", "a@example.nz"}}, {"company_name"}},
        {{{"company_name", company}, {"billing_email", 7}, {"admin_email", "a@example.nz"}}, {"billing_email"}},
        {{{"company_name", company}, {"billing_email", "b@example.nz"}, {"admin_email", "a@example.nz"}, {"max_licenses", -1}},
         {"max_licenses"}},
    };
    for (const auto& c : cases) {
        auto res = postJson("/api/v1/admin/enterprise-accounts", c.body, staff());
        EXPECT_EQ(res.status, 422) << c.body.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed");
        for (const auto& field : c.fields) EXPECT_TRUE(res.json()["fields"].contains(field)) << c.body.dump() << " " << field;
        EXPECT_EQ(res.json()["fields"].size(), c.fields.size()) << res.body;
    }
    EXPECT_EQ(accountsNamed(company), 0);
    EXPECT_EQ(usersCount(), users);
    // Not JSON at all.
    auto raw = http(env().port, "POST", "/api/v1/admin/enterprise-accounts", "{", {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + enterpriseStaff().session.accessToken}, {"X-Forwarded-For", enterpriseStaff().session.ip}});
    EXPECT_EQ(raw.status, 400);
}

TEST(EnterpriseStaffApi, TheListIsNewestFirstWithCountsSearchAndPages) {
    const std::string tag = unique("listtag");
    std::vector<TestTeam> teams;
    for (int i = 0; i < 3; ++i) teams.push_back(createTeam(tag + "-" + std::to_string(i)));
    addNewMember(teams[1]);
    addLicence(teams[1].accountId, createLicensableProduct().id, 2);

    auto res = getJson("/api/v1/admin/enterprise-accounts?q=" + tag + "&page_size=2", staff());
    ASSERT_EQ(res.status, 200) << res.body;
    auto body = res.json();
    EXPECT_EQ(body["total"], 3);
    EXPECT_EQ(body["page_size"], 2);
    ASSERT_EQ(body["items"].size(), 2u);
    EXPECT_EQ(body["items"][0]["id"], teams[2].accountId);
    EXPECT_EQ(body["items"][1]["id"], teams[1].accountId);
    EXPECT_EQ(body["items"][1]["user_count"], 2);
    EXPECT_EQ(body["items"][1]["license_count"], 1);
    EXPECT_EQ(body["items"][1]["admin"]["email"], teams[1].admin.email);
    EXPECT_EQ(body["items"][1]["billing_email"], "billing@example.nz");
    EXPECT_FALSE(body["items"][1]["created_at"].get<std::string>().empty());

    auto second = getJson("/api/v1/admin/enterprise-accounts?q=" + tag + "&page_size=2&page=2", staff());
    ASSERT_EQ(second.json()["items"].size(), 1u);
    EXPECT_EQ(second.json()["items"][0]["id"], teams[0].accountId);

    // By the admin's email, and LIKE characters taken literally.
    auto byAdmin = getJson("/api/v1/admin/enterprise-accounts?q=" + teams[0].admin.email, staff());
    EXPECT_EQ(byAdmin.json()["total"], 1);
    EXPECT_EQ(getJson("/api/v1/admin/enterprise-accounts?q=%25" + tag, staff()).json()["total"], 0);
    EXPECT_EQ(getJson("/api/v1/admin/enterprise-accounts?page=0", staff()).status, 422);
    EXPECT_EQ(getJson("/api/v1/admin/enterprise-accounts?page_size=500", staff()).status, 422);
}

TEST(EnterpriseStaffApi, DetailsShowUsersAndLicencesAndUnknownIdsAre404) {
    auto team = createTeam("details");
    Account memberUser;
    addNewMember(team, &memberUser);
    auto product = createLicensableProduct();
    addLicence(team.accountId, product.id, 3);

    auto res = getJson("/api/v1/admin/enterprise-accounts/" + team.accountId, staff());
    ASSERT_EQ(res.status, 200) << res.body;
    auto body = res.json();
    ASSERT_EQ(body["members"].size(), 2u);
    EXPECT_EQ(body["members"][0]["email"], team.admin.email);
    EXPECT_EQ(body["members"][0]["role"], "admin");
    EXPECT_EQ(body["members"][1]["email"], memberUser.email);
    EXPECT_EQ(body["members"][1]["role"], "member");
    EXPECT_FALSE(body["members"][1]["added_at"].get<std::string>().empty());
    ASSERT_EQ(body["licences"].size(), 1u);
    EXPECT_EQ(body["licences"][0]["product"]["id"], product.id);
    EXPECT_EQ(body["licences"][0]["quantity"], 3);
    EXPECT_EQ(body["licences"][0]["used_count"], 2);

    for (const std::string& id : {std::string("not-a-uuid"), storefront::db::newId(), std::string("123")}) {
        auto missing = getJson("/api/v1/admin/enterprise-accounts/" + id, staff());
        EXPECT_EQ(missing.status, 404) << id;
        EXPECT_EQ(missing.json()["code"], "enterprise_account_not_found");
    }
}

TEST(EnterpriseStaffApi, ActivatingDeactivatingAndLimitsAreAuditedAndBadValuesChangeNothing) {
    auto team = createTeam("toggle");
    addNewMember(team);
    const std::string path = "/api/v1/admin/enterprise-accounts/" + team.accountId;

    auto off = patchJson(path, {{"is_active", false}}, staff());
    ASSERT_EQ(off.status, 200) << off.body;
    EXPECT_EQ(off.json()["account"]["is_active"], false);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'enterprise_account.updated' AND target_id = ? "
                        "AND before_json LIKE '%\"is_active\":true%' AND after_json LIKE '%\"is_active\":false%' AND actor_id = ?",
                        {team.accountId, enterpriseStaff().account.id}),
              1);
    auto on = patchJson(path, {{"is_active", true}, {"max_licenses", 8}, {"billing_email", "new@example.nz"}}, staff());
    ASSERT_EQ(on.status, 200) << on.body;
    EXPECT_EQ(on.json()["account"]["is_active"], true);
    EXPECT_EQ(on.json()["account"]["max_licenses"], 8);
    EXPECT_EQ(on.json()["account"]["billing_email"], "new@example.nz");

    const auto audits = countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {team.accountId});
    struct Case {
        nlohmann::json body;
        const char* field;
    };
    for (const auto& c : std::vector<Case>{{{{"is_active", "no"}}, "is_active"},
                                           {{{"max_licenses", -2}}, "max_licenses"},
                                           {{{"max_licenses", 1}}, "max_licenses"}, // two members already
                                           {{{"billing_email", "nope"}}, "billing_email"},
                                           {{{"company_name", ""}}, "company_name"}}) {
        auto res = patchJson(path, c.body, staff());
        EXPECT_EQ(res.status, 422) << c.body.dump();
        EXPECT_TRUE(res.json()["fields"].contains(c.field)) << res.body;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM enterprise_accounts WHERE id = ? AND max_licenses = 8 AND is_active = TRUE "
                        "AND billing_email = 'new@example.nz'",
                        {team.accountId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {team.accountId}), audits);
    EXPECT_EQ(patchJson("/api/v1/admin/enterprise-accounts/" + storefront::db::newId(), {{"is_active", false}}, staff()).status, 404);
    EXPECT_EQ(patchJson("/api/v1/admin/enterprise-accounts/zzz", {{"is_active", false}}, staff()).status, 404);
}

TEST(EnterpriseStaffApi, LicencesAreAddedChangedAndRemovedNeverBelowTheSeatsInUse) {
    auto team = createTeam("licences");
    addNewMember(team);
    addNewMember(team);
    auto product = createLicensableProduct();
    const std::string base = "/api/v1/admin/enterprise-accounts/" + team.accountId + "/licences";

    auto added = postJson(base, {{"product_id", product.id}, {"quantity", 2}}, staff());
    ASSERT_EQ(added.status, 201) << added.body;
    const std::string licenceId = added.json()["licence"]["id"];
    // Two seats for three members (admin first): both taken at once.
    EXPECT_EQ(added.json()["licence"]["used_count"], 2);
    EXPECT_EQ(added.json()["licence"]["product"]["slug"], product.slug);
    EXPECT_EQ(auditRows("enterprise_licence.created", licenceId), 1);

    auto duplicate = postJson(base, {{"product_id", product.id}, {"quantity", 1}}, staff());
    EXPECT_EQ(duplicate.status, 409);
    EXPECT_EQ(duplicate.json()["code"], "licence_exists");

    struct Case {
        nlohmann::json body;
        const char* field;
    };
    for (const auto& c : std::vector<Case>{{{{"product_id", storefront::db::newId()}, {"quantity", 1}}, "product_id"},
                                           {{{"product_id", "abc"}, {"quantity", 1}}, "product_id"},
                                           {{{"quantity", 1}}, "product_id"},
                                           {{{"product_id", createLicensableProduct().id}, {"quantity", -1}}, "quantity"},
                                           {{{"product_id", createLicensableProduct().id}}, "quantity"},
                                           {{{"product_id", createLicensableProduct().id}, {"quantity", 1.5}}, "quantity"}}) {
        auto res = postJson(base, c.body, staff());
        EXPECT_EQ(res.status, 422) << c.body.dump();
        EXPECT_TRUE(res.json()["fields"].contains(c.field)) << res.body;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM enterprise_licenses WHERE enterprise_account_id = ?", {team.accountId}), 1);

    // Below the seats in use: refused, unchanged.
    for (int quantity : {1, 0, -1}) {
        auto res = patchJson(base + "/" + licenceId, {{"quantity", quantity}}, staff());
        EXPECT_EQ(res.status, 422) << quantity;
        EXPECT_TRUE(res.json()["fields"].contains("quantity"));
    }
    EXPECT_EQ(countRows("SELECT quantity FROM enterprise_licenses WHERE id = ?", {licenceId}), 2);
    // Up: the waiting member gets the new seat.
    auto grown = patchJson(base + "/" + licenceId, {{"quantity", 4}}, staff());
    ASSERT_EQ(grown.status, 200) << grown.body;
    EXPECT_EQ(grown.json()["licence"]["quantity"], 4);
    EXPECT_EQ(grown.json()["licence"]["used_count"], 3);
    EXPECT_EQ(seatRows(licenceId), 3);

    // Another account's licence id, a malformed id, an unknown id: 404, nothing changes.
    auto other = createTeam("licences-other");
    const std::string otherBase = "/api/v1/admin/enterprise-accounts/" + other.accountId + "/licences/";
    EXPECT_EQ(patchJson(otherBase + licenceId, {{"quantity", 9}}, staff()).status, 404);
    EXPECT_EQ(del(otherBase + licenceId, staff()).status, 404);
    EXPECT_EQ(del(base + "/not-a-uuid", staff()).status, 404);
    EXPECT_EQ(del(base + "/" + storefront::db::newId(), staff()).status, 404);
    EXPECT_EQ(countRows("SELECT quantity FROM enterprise_licenses WHERE id = ?", {licenceId}), 4);

    auto removed = del(base + "/" + licenceId, staff());
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM enterprise_licenses WHERE id = ?", {licenceId}), 0);
    EXPECT_EQ(seatRows(licenceId), 0);
    EXPECT_EQ(auditRows("enterprise_licence.deleted", licenceId), 1);
}

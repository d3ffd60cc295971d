// /api/v1/enterprise and the EnterpriseAdmin access rule (enterprise/access.h).
#include "auth_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string createAccount(const std::string& adminUserId, const std::string& company, bool active = true) {
    const auto id = storefront::db::newId();
    const auto now = testClock().nowTimestamp();
    execSql("INSERT INTO enterprise_accounts (id, admin_user_id, company_name, billing_email, max_licenses, is_active, "
            "created_at, updated_at) VALUES (?, ?, ?, 'billing@example.nz', 5, " +
                std::string(active ? "TRUE" : "FALSE") + ", ?, ?)",
            {id, adminUserId, company, now, now});
    execSql("INSERT INTO enterprise_members (id, enterprise_account_id, user_id, role, added_at) VALUES (?, ?, ?, 'admin', ?)",
            {storefront::db::newId(), id, adminUserId, now});
    return id;
}

} // namespace

TEST(EnterpriseApi, AVisitorMustSignIn) {
    auto res = getJson("/api/v1/enterprise", as(newClientIp()));
    EXPECT_EQ(res.status, 401);
}

TEST(EnterpriseApi, ACustomerWithoutAnAccountGets404NotAForbiddenHint) {
    auto account = createUser("no-enterprise");
    auto session = signIn(account, newClientIp());
    auto res = getJson("/api/v1/enterprise", session.headers());
    EXPECT_EQ(res.status, 404);
    EXPECT_EQ(res.json()["code"], "enterprise_account_not_found");
    EXPECT_EQ(res.json()["message"], "No Enterprise Account");
}

TEST(EnterpriseApi, TheAccountsAdminSeesTheirAccount) {
    auto admin = createUser("enterprise-admin");
    const auto company = unique("Acme Traffic ");
    const auto id = createAccount(admin.id, company);
    auto session = signIn(admin, newClientIp());
    auto res = getJson("/api/v1/enterprise", session.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    auto body = res.json()["account"];
    EXPECT_EQ(body["id"], id);
    EXPECT_EQ(body["company_name"], company);
    EXPECT_EQ(body["billing_email"], "billing@example.nz");
    EXPECT_EQ(body["max_licenses"], 5);
    EXPECT_EQ(body["is_active"], true);
    EXPECT_EQ(body["member_count"], 1);
    EXPECT_EQ(res.header("cache-control"), "no-store");
}

TEST(EnterpriseApi, ADeactivatedAccountIsStillShownToItsAdminAsInactive) {
    auto admin = createUser("enterprise-inactive");
    createAccount(admin.id, unique("Dormant "), false);
    auto session = signIn(admin, newClientIp());
    auto res = getJson("/api/v1/enterprise", session.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["account"]["is_active"], false);
}

TEST(EnterpriseApi, AMemberWhoIsNotTheAdminGets404) {
    auto admin = createUser("enterprise-owner");
    auto member = createUser("enterprise-member");
    const auto id = createAccount(admin.id, unique("Team "));
    execSql("INSERT INTO enterprise_members (id, enterprise_account_id, user_id, role, added_at) VALUES (?, ?, ?, 'member', ?)",
            {storefront::db::newId(), id, member.id, testClock().nowTimestamp()});
    auto session = signIn(member, newClientIp());
    EXPECT_EQ(getJson("/api/v1/enterprise", session.headers()).status, 404);
}

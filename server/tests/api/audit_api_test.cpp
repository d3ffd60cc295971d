// The audit module: an entry commits or rolls back with the change it records, keeps the actor as
// they were, and the accounts' events still read through the auth_audit_log view.
#include "audit/audit.h"
#include "auth_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace testing_support;

TEST(AuditApi, AnEntryIsWrittenInTheTransactionOfItsChange) {
    const std::string target = unique("target-");
    storefront::audit::Actor actor;
    actor.userId = storefront::db::newId();
    actor.email = "staff@example.nz";
    actor.role = "admin";
    actor.aal = "aal2";
    actor.clientAddress = "203.0.113.9";
    env().db->write([&](storefront::db::Tx& tx) {
        storefront::audit::record(tx, actor,
                                  {"product.updated", "product", target, {{"name", "Old"}}, {{"name", "New"}}, {{"why", "rename"}}});
    });
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'product.updated' AND target_type = 'product' "
                        "AND target_id = ? AND actor_id = ? AND actor_email = 'staff@example.nz' AND actor_role = 'admin' "
                        "AND actor_aal = 'aal2' AND client_address = '203.0.113.9'",
                        {target, *actor.userId}),
              1);
    auto before = textColumn("SELECT before_json FROM audit_log WHERE target_id = ?", {target});
    auto after = textColumn("SELECT after_json FROM audit_log WHERE target_id = ?", {target});
    ASSERT_EQ(before.size(), 1u);
    EXPECT_EQ(nlohmann::json::parse(before[0]), nlohmann::json({{"name", "Old"}}));
    EXPECT_EQ(nlohmann::json::parse(after[0]), nlohmann::json({{"name", "New"}}));
    // Not an account event: the accounts' view does not show it.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE user_id = ?", {target}), 0);

    const std::string rolledBack = unique("target-");
    EXPECT_THROW(env().db->write([&](storefront::db::Tx& tx) {
        storefront::audit::record(tx, actor, {"product.deleted", "product", rolledBack});
        throw std::runtime_error("the change failed");
    }),
                 std::runtime_error);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {rolledBack}), 0);
}

TEST(AuditApi, AccountEventsAreInTheAuditLogAndTheAccountsView) {
    auto account = createUser("audited");
    const auto ip = newClientIp();
    auto session = signIn(account, ip);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'login' AND target_type = 'user' AND target_id = ? "
                        "AND client_address = ?",
                        {account.id, ip}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_audit_log WHERE event = 'login' AND user_id = ? AND ip = ?", {account.id, ip}), 1);
}

namespace {

void recordFor(const std::string& action, const std::string& targetType, const std::string& targetId, const std::string& email) {
    storefront::audit::Actor actor;
    actor.userId = storefront::db::newId();
    actor.email = email;
    actor.role = "admin";
    env().db->write([&](storefront::db::Tx& tx) {
        storefront::audit::record(tx, actor, {action, targetType, targetId, nullptr, {{"status", "paid"}}});
    });
    // Timestamps have millisecond resolution: keep each entry's time its own so "newest first" is
    // decided by time, not by the id that breaks ties.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
}

} // namespace

TEST(AuditApi, OnlyStaffAdminsPastTheTwoFactorStepReadTheLog) {
    EXPECT_EQ(getJson("/api/v1/admin/audit", as(newClientIp())).status, 401);

    auto customer = signIn(createUser("audit-customer"), newClientIp());
    auto denied = getJson("/api/v1/admin/audit", customer.headers());
    EXPECT_EQ(denied.status, 403);
    EXPECT_EQ(denied.json()["message"], "Access denied. Admin privileges required.");

    auto adminWithoutFactor = createUser("audit-admin-nofactor");
    grantAdmin(adminWithoutFactor.id);
    auto aal1 = signIn(adminWithoutFactor, newClientIp());
    EXPECT_EQ(getJson("/api/v1/admin/audit", aal1.headers()).status, 403);

    auto admin = createStaffAdmin(newClientIp());
    auto res = getJson("/api/v1/admin/audit", admin.session.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_TRUE(res.json()["items"].is_array());
    EXPECT_EQ(res.json()["page"], 1);
    EXPECT_EQ(res.json()["page_size"], 50);
    EXPECT_GE(res.json()["total"].get<int>(), 1);
}

TEST(AuditApi, TheLogIsFilteredAndPagedOnTheServerNewestFirst) {
    auto admin = createStaffAdmin(newClientIp());
    const auto order = unique("order-");
    const auto staffEmail = unique("auditor-") + "@example.nz";
    for (int i = 0; i < 3; ++i) recordFor("order.status_changed", "order", order, staffEmail);
    recordFor("product.updated", "product", unique("product-"), staffEmail);

    auto byTarget = getJson("/api/v1/admin/audit?target=" + order, admin.session.headers());
    ASSERT_EQ(byTarget.status, 200) << byTarget.body;
    EXPECT_EQ(byTarget.json()["total"], 3);

    auto byActor = getJson("/api/v1/admin/audit?actor=" + staffEmail.substr(0, staffEmail.find('@')) + "&page_size=2",
                           admin.session.headers());
    ASSERT_EQ(byActor.status, 200);
    EXPECT_EQ(byActor.json()["total"], 4);
    ASSERT_EQ(byActor.json()["items"].size(), 2u);
    // Newest first: the product change was recorded last.
    EXPECT_EQ(byActor.json()["items"][0]["action"], "product.updated");
    EXPECT_EQ(byActor.json()["items"][0]["actor"]["email"], staffEmail);
    EXPECT_EQ(byActor.json()["items"][0]["after"]["status"], "paid");

    auto second = getJson("/api/v1/admin/audit?actor=" + staffEmail + "&page_size=2&page=2", admin.session.headers());
    ASSERT_EQ(second.json()["items"].size(), 2u);
    EXPECT_EQ(second.json()["items"][1]["target_id"], order);

    auto both = getJson("/api/v1/admin/audit?actor=" + staffEmail + "&action=product.updated", admin.session.headers());
    EXPECT_EQ(both.json()["total"], 1);

    // LIKE metacharacters are matched literally.
    auto literal = getJson("/api/v1/admin/audit?actor=%25", admin.session.headers());
    EXPECT_EQ(literal.status, 200);
    EXPECT_EQ(literal.json()["total"], 0);
}

TEST(AuditApi, BadPagingIsA422NamingTheField) {
    auto admin = createStaffAdmin(newClientIp());
    for (const std::string query : {"page=0", "page=abc", "page_size=201", "page_size=-1", "page=1.5"}) {
        auto res = getJson("/api/v1/admin/audit?" + query, admin.session.headers());
        EXPECT_EQ(res.status, 422) << query;
        EXPECT_EQ(res.json()["code"], "validation_failed") << query;
        EXPECT_EQ(res.json()["fields"].size(), 1u) << query;
    }
}

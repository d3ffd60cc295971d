// The audit module: an entry commits or rolls back with the change it records, keeps the actor as
// they were, and the accounts' events still read through the auth_audit_log view.
#include "audit/audit.h"
#include "auth_support.h"

#include <gtest/gtest.h>

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

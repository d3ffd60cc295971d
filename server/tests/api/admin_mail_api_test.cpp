// The staff mail outbox: the list (status filter, recipient search, newest first, paging, never a
// body) and "Retry now" for a failed mail (409 otherwise), audited, which the delivery job then sends.
#include "api/admin_support.h"

#include <Poco/String.h>
#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string mailAgo(int secondsAgo) { return testClock().timestampAfter(-secondsAgo); }

// A mail written directly: `status` pending, sent or failed.
std::string insertOutboxMail(const std::string& to, const std::string& status, const std::string& createdAt, int attempts = 0,
                       const std::string& body = "Body with https://example.nz/verify?token=secret-token") {
    const auto id = storefront::db::newId();
    std::optional<std::string> sentAt, error;
    if (status == "sent") sentAt = createdAt;
    if (status == "failed") error = "550 mailbox unavailable";
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO mail_outbox (id, kind, to_address, subject, body_text, status, attempts, next_attempt_at, "
                 "last_error, created_at, sent_at) VALUES (?, 'signup', ?, 'Confirm your signup', ?, ?, ?, ?, ?, ?, ?)")
            .bind(id, to, body, status, attempts, createdAt, error, createdAt, sentAt)
            .run();
    });
    return id;
}

std::string outboxMailStatus(const std::string& id) {
    auto rows = textColumn("SELECT status FROM mail_outbox WHERE id = ?", {id});
    return rows.empty() ? "" : rows[0];
}

} // namespace

TEST(AdminMailApi, OnlyStaffAdmins) {
    const auto id = insertOutboxMail(unique("only-") + "@example.nz", "failed", mailAgo(3600), 5);
    expectStaffOnly("GET", "/api/v1/admin/mail");
    expectStaffOnly("POST", "/api/v1/admin/mail/" + id + "/retry");
    EXPECT_EQ(outboxMailStatus(id), "failed");
    EXPECT_EQ(auditCount("mail.retried", id), 0);
    EXPECT_EQ(getJson("/api/v1/admin/mail", callers().admin).status, 200);
}

TEST(AdminMailApi, TheListIsFilteredSearchedAndPagedNewestFirstWithoutBodies) {
    const auto tag = unique("outbox-");
    const auto to = tag + "@Example.nz";
    const auto sent = insertOutboxMail(to, "sent", mailAgo(3000 * 60), 1);
    const auto failed = insertOutboxMail(to, "failed", mailAgo(2000 * 60), 5);
    const auto pending = insertOutboxMail(to, "pending", mailAgo(1000 * 60), 0);

    auto all = getJson("/api/v1/admin/mail?q=" + tag, callers().admin);
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(all.json()["total"], 3);
    auto items = all.json()["items"];
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0]["id"], pending);
    EXPECT_EQ(items[1]["id"], failed);
    EXPECT_EQ(items[2]["id"], sent);
    EXPECT_EQ(items[1]["kind"], "signup");
    EXPECT_EQ(items[1]["to"], to);
    EXPECT_EQ(items[1]["subject"], "Confirm your signup");
    EXPECT_EQ(items[1]["status"], "failed");
    EXPECT_EQ(items[1]["attempts"], 5);
    EXPECT_EQ(items[1]["last_error"], "550 mailbox unavailable");
    EXPECT_FALSE(items[1]["next_attempt_at"].is_null());
    EXPECT_TRUE(items[1]["sent_at"].is_null());
    EXPECT_TRUE(items[2]["next_attempt_at"].is_null());
    EXPECT_FALSE(items[2]["sent_at"].is_null());
    // No body, and nothing of it: an auth mail's link carries a token.
    EXPECT_EQ(all.body.find("secret-token"), std::string::npos);
    EXPECT_FALSE(items[0].contains("body_text"));
    EXPECT_FALSE(items[0].contains("body"));

    auto onlyFailed = getJson("/api/v1/admin/mail?status=failed&q=" + Poco::toUpper(tag), callers().admin);
    ASSERT_EQ(onlyFailed.status, 200);
    EXPECT_EQ(onlyFailed.json()["total"], 1);
    EXPECT_EQ(onlyFailed.json()["items"][0]["id"], failed);

    auto paged = getJson("/api/v1/admin/mail?q=" + tag + "&page_size=2&page=2", callers().admin);
    ASSERT_EQ(paged.status, 200);
    EXPECT_EQ(paged.json()["total"], 3);
    ASSERT_EQ(paged.json()["items"].size(), 1u);
    EXPECT_EQ(paged.json()["items"][0]["id"], sent);

    // LIKE metacharacters are matched literally.
    EXPECT_EQ(getJson("/api/v1/admin/mail?q=%25" + tag, callers().admin).json()["total"], 0);
}

TEST(AdminMailApi, BadFiltersAre422) {
    for (const std::string& query : std::vector<std::string>{"status=stuck", "status=SENT", "page=0", "page_size=201", "page=x", "q=" + std::string(255, 'a')}) {
        auto res = getJson("/api/v1/admin/mail?" + query, callers().admin);
        EXPECT_EQ(res.status, 422) << query << " " << res.body;
        EXPECT_EQ(res.json()["code"], "validation_failed") << query;
    }
}

TEST(AdminMailApi, RetryNowPutsAFailedMailBackAndTheJobSendsIt) {
    const auto to = unique("retry-") + "@example.nz";
    const auto id = insertOutboxMail(to, "failed", mailAgo(7200), 5, "Your order has shipped.");
    auto res = postJson("/api/v1/admin/mail/" + id + "/retry", nlohmann::json::object(), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto mail = res.json()["mail"];
    EXPECT_EQ(mail["id"], id);
    EXPECT_EQ(mail["status"], "pending");
    EXPECT_EQ(mail["attempts"], 5); // kept: the count is every attempt ever made
    EXPECT_EQ(mail["last_error"], "550 mailbox unavailable");
    EXPECT_EQ(auditCount("mail.retried", id), 1);
    auto audit = textColumn("SELECT before_json || '|' || after_json || '|' || actor_email FROM audit_log "
                            "WHERE action = 'mail.retried' AND target_id = ?",
                            {id});
    ASSERT_EQ(audit.size(), 1u);
    EXPECT_NE(audit[0].find("\"status\":\"failed\""), std::string::npos);
    EXPECT_NE(audit[0].find("\"status\":\"pending\""), std::string::npos);
    EXPECT_NE(audit[0].find(callers().adminEmail), std::string::npos);

    // Due now: the delivery job sends it to the relay.
    EXPECT_TRUE(eventually([&] { return outboxMailStatus(id) == "sent"; })) << outboxMailStatus(id);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE id = ? AND attempts = 6 AND last_error IS NULL", {id}), 1);
}

TEST(AdminMailApi, OnlyAFailedMailIsRetried) {
    const auto to = unique("noretry-") + "@example.nz";
    const auto sent = insertOutboxMail(to, "sent", mailAgo(600), 1);
    auto res = postJson("/api/v1/admin/mail/" + sent + "/retry", nlohmann::json::object(), callers().admin);
    EXPECT_EQ(res.status, 409) << res.body;
    EXPECT_EQ(res.json()["code"], "mail_not_failed");
    EXPECT_EQ(outboxMailStatus(sent), "sent");
    EXPECT_EQ(auditCount("mail.retried", sent), 0);

    // Pending far in the future, so the job leaves it alone while the test looks.
    const auto pending = insertOutboxMail(to, "pending", testClock().timestampAfter(86400), 2);
    auto again = postJson("/api/v1/admin/mail/" + pending + "/retry", nlohmann::json::object(), callers().admin);
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "mail_not_failed");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE id = ? AND status = 'pending' AND attempts = 2", {pending}), 1);
    EXPECT_EQ(auditCount("mail.retried", pending), 0);

    auto unknown = postJson("/api/v1/admin/mail/" + storefront::db::newId() + "/retry", nlohmann::json::object(), callers().admin);
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "mail_not_found");
    EXPECT_EQ(postJson("/api/v1/admin/mail/not-a-uuid/retry", nlohmann::json::object(), callers().admin).status, 404);
}

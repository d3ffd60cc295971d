#include "api/harness.h"

#include <gtest/gtest.h>

using namespace testing_support;
using namespace Poco::Data::Keywords;

namespace {

nlohmann::json submission(const std::string& email) {
    return {{"name", "Aroha Ngata"}, {"email", email}, {"company", "Waka Traffic"}, {"phone", "021 555 0101"},
            {"message", "We run 40 traffic cabinets.\nPlease quote 12 licences."}};
}

int count(const std::string& sqlWithOneParam, const std::string& value) {
    auto& e = env();
    auto s = e.db->session();
    int n = 0;
    std::string v = value;
    s << e.db->sql(sqlWithOneParam), use(v), into(n), now;
    return n;
}

// Each test speaks as its own client address (the server trusts X-Forwarded-For from loopback).
std::map<std::string, std::string> client(const std::string& address) { return {{"X-Forwarded-For", address}}; }

} // namespace

TEST(ContactApi, StoresTheSubmissionAndMailsSales) {
    auto email = unique("aroha") + "@example.co.nz";
    auto r = postJson("/api/v1/contact", submission(email), client("203.0.113.10"));
    ASSERT_EQ(r.status, 201) << r.body;
    auto id = r.json()["id"].get<std::string>();
    EXPECT_EQ(id.size(), 36u);
    EXPECT_EQ(count("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", email), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM mail_outbox WHERE reply_to = ?", email), 1);
    ASSERT_TRUE(eventually([&] { return count("SELECT COUNT(*) FROM mail_outbox WHERE reply_to = ? AND status = 'sent'", email) == 1; }));
    bool found = false;
    for (const auto& m : env().smtp->messages()) {
        if (m.find(email) == std::string::npos) continue;
        found = true;
        EXPECT_NE(m.find("\nTo: sales@signalcraft.co.nz\n"), std::string::npos) << m;
        EXPECT_NE(m.find("\nReply-To: " + email + "\n"), std::string::npos) << m;
        EXPECT_EQ(m.find("Bcc:"), std::string::npos) << m;
    }
    EXPECT_TRUE(found);
}

TEST(ContactApi, TheExistingAppsPathWorksAndCannotChooseTheRecipient) {
    auto email = unique("app") + "@example.co.nz";
    auto body = submission(email);
    body["to"] = "attacker@evil.example";
    body["subject"] = "Injected";
    auto r = postJson("/functions/v1/send-contact-email", body, client("203.0.113.11"));
    ASSERT_EQ(r.status, 201) << r.body;
    auto& e = env();
    auto s = e.db->session();
    std::string to;
    s << e.db->sql("SELECT to_address FROM mail_outbox WHERE reply_to = ?"), use(email), into(to), now;
    EXPECT_EQ(to, "sales@signalcraft.co.nz");
}

TEST(ContactApi, InvalidInputIs422WithFieldsAndStoresNothing) {
    auto email = unique("bad") + "@example.co.nz";
    auto body = submission(email);
    body["name"] = "Eve\r\nBcc: everyone@example.com";
    body["message"] = "";
    auto r = postJson("/api/v1/contact", body, client("203.0.113.12"));
    ASSERT_EQ(r.status, 422) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["code"], "validation_failed");
    EXPECT_TRUE(j["fields"].contains("name"));
    EXPECT_TRUE(j["fields"].contains("message"));
    EXPECT_EQ(count("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", email), 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM mail_outbox WHERE reply_to = ?", email), 0);

    auto badEmail = submission("not-an-email");
    auto r2 = postJson("/api/v1/contact", badEmail, client("203.0.113.12"));
    EXPECT_EQ(r2.status, 422);
    EXPECT_TRUE(r2.json()["fields"].contains("email"));
}

TEST(ContactApi, ScriptInFieldsIsStoredAsPlainText) {
    auto email = unique("script") + "@example.co.nz";
    auto body = submission(email);
    body["company"] = "<script>alert(1)</script>";
    auto r = postJson("/api/v1/contact", body, client("203.0.113.13"));
    ASSERT_EQ(r.status, 201);
    EXPECT_EQ(count("SELECT COUNT(*) FROM contact_submissions WHERE email = ? AND company = '<script>alert(1)</script>'", email), 1);
}

TEST(ContactApi, RateLimitedPerClientWithRetryAfter) {
    const std::string address = "198.51.100.77";
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(postJson("/api/v1/contact", submission(unique("rl") + "@example.co.nz"), client(address)).status, 201);
    auto email = unique("rl-blocked") + "@example.co.nz";
    auto r = postJson("/api/v1/contact", submission(email), client(address));
    EXPECT_EQ(r.status, 429);
    EXPECT_EQ(r.json()["code"], "rate_limited");
    EXPECT_GT(std::stoi(r.header("retry-after")), 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", email), 0);
    // Another client is unaffected.
    EXPECT_EQ(postJson("/api/v1/contact", submission(unique("rl2") + "@example.co.nz"), client("198.51.100.78")).status, 201);
}

TEST(ContactApi, AMailRelayOutageLosesNothingAndIsRetried) {
    auto& smtp = *env().smtp;
    smtp.setRefusing(true);
    auto email = unique("outage") + "@example.co.nz";
    auto r = postJson("/api/v1/contact", submission(email), client("203.0.113.14"));
    ASSERT_EQ(r.status, 201);
    EXPECT_EQ(count("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", email), 1);
    ASSERT_TRUE(eventually([&] {
        return count("SELECT COUNT(*) FROM mail_outbox WHERE reply_to = ? AND attempts >= 1 AND status = 'pending' "
                     "AND last_error IS NOT NULL", email) == 1;
    }));
    smtp.setRefusing(false);
    EXPECT_TRUE(eventually([&] { return count("SELECT COUNT(*) FROM mail_outbox WHERE reply_to = ? AND status = 'sent'", email) == 1; }, 20));
}

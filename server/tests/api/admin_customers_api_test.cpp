// Staff customers screen (/api/v1/admin/customers): who may call it, the list's search, filters,
// sorts and paging (bad ones 422), the detail, and the actions: resend confirmation, send
// recovery, reset two-factor (reason required), grant and revoke admin (never the last admin),
// closed accounts refused, each audited and each mail queued.
#include "api/admin_support.h"

#include <gtest/gtest.h>

#include <Poco/String.h>

#include <chrono>

using namespace testing_support;

namespace {

const std::string kList = "/api/v1/admin/customers";

std::string customerPath(const std::string& id, const std::string& tail = "") { return kList + "/" + id + tail; }

// A customer with a name and a creation time of its own (seconds before now).
Account namedCustomer(const std::string& prefix, const std::string& fullName, int secondsAgo, bool confirmed = true) {
    auto account = createUser(prefix, confirmed);
    execSql("UPDATE profiles SET full_name = ? WHERE id = ?", {fullName, account.id});
    execSql("UPDATE users SET created_at = ? WHERE id = ?", {testClock().timestampAfter(-secondsAgo), account.id});
    return account;
}

// A verified factor, written directly (the screen never reads the secret column). Its secret is a
// plain base32 one, as stored before encryption: a server started later seals it.
void insertFactor(const std::string& userId, const std::string& name) {
    const auto at = testClock().nowTimestamp();
    execSql("INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, "
            "updated_at) VALUES (?, ?, ?, 'totp', 'verified', 'JBSWY3DPEHPK3PXP', 0, ?, ?)",
            {storefront::db::newId(), userId, name, at, at});
}

// A closed account as issue 24 leaves it: the row kept, contact details and profile gone.
void closeAccount(const std::string& userId) {
    const auto at = testClock().nowTimestamp();
    execSql("DELETE FROM profiles WHERE id = ?", {userId});
    execSql("DELETE FROM user_roles WHERE user_id = ?", {userId});
    execSql("UPDATE users SET email = NULL, phone = NULL, encrypted_password = NULL, raw_user_meta_data = '{}', deleted_at = ? "
            "WHERE id = ?",
            {at, userId});
}

std::vector<std::string> idsOf(const nlohmann::json& page) {
    std::vector<std::string> ids;
    for (const auto& item : page["items"]) ids.push_back(item["id"]);
    return ids;
}

std::int64_t outboxCount(const std::string& kind, const std::string& to) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, to});
}

// Every other admin's role is taken away for the test's lifetime and given back after it.
class OnlyTheseAdmins {
public:
    explicit OnlyTheseAdmins(const std::vector<std::string>& keep) {
        saved_ = textColumn("SELECT CAST(user_id AS TEXT) FROM user_roles WHERE role = 'admin'");
        execSql("DELETE FROM user_roles WHERE role = 'admin'");
        for (const auto& id : keep) grantAdmin(id);
    }
    ~OnlyTheseAdmins() {
        execSql("DELETE FROM user_roles WHERE role = 'admin'");
        for (const auto& id : saved_) grantAdmin(id);
    }

private:
    std::vector<std::string> saved_;
};

} // namespace

TEST(AdminCustomersApi, OnlyStaffAdminsPastTheTwoFactorStep) {
    const auto target = createUser("cust-access");
    expectStaffOnly("GET", kList);
    expectStaffOnly("GET", customerPath(target.id));
    expectStaffOnly("POST", customerPath(target.id, "/resend-confirmation"));
    expectStaffOnly("POST", customerPath(target.id, "/send-recovery"));
    expectStaffOnly("DELETE", customerPath(target.id, "/factors"), {{"reason", "Lost phone"}});
    expectStaffOnly("PUT", customerPath(target.id, "/roles/admin"));
    expectStaffOnly("DELETE", customerPath(target.id, "/roles/admin"));
    // None of those refused calls changed anything.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ?", {target.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {target.email}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {target.id}), 0);
    EXPECT_EQ(getJson(kList, callers().admin).status, 200);
}

TEST(AdminCustomersApi, UnknownOrMalformedIdsAre404) {
    for (const std::string& id : {storefront::db::newId(), std::string("not-a-uuid")}) {
        auto res = getJson(customerPath(id), callers().admin);
        EXPECT_EQ(res.status, 404) << id;
        EXPECT_EQ(res.json()["code"], "customer_not_found");
        EXPECT_EQ(postJson(customerPath(id, "/send-recovery"), nlohmann::json::object(), callers().admin).status, 404);
        EXPECT_EQ(putJson(customerPath(id, "/roles/admin"), nlohmann::json::object(), callers().admin).status, 404);
        EXPECT_EQ(del(customerPath(id, "/factors"), callers().admin, {{"reason", "Lost phone"}}).status, 404);
    }
}

TEST(AdminCustomersApi, SearchesByEmailOrNameFiltersSortsAndPages) {
    const auto tag = unique("kowhai");
    const auto a = namedCustomer(tag + "-a", "Aroha " + tag, 300);
    const auto b = namedCustomer("cust-b", "Ben " + Poco::toUpper(tag), 200, false);
    const auto c = namedCustomer(tag + "-c", "Chloe Tan", 100);
    grantAdmin(c.id);
    insertFactor(a.id, "Phone");
    const auto closed = namedCustomer(tag + "-closed", "Gone " + tag, 50);
    closeAccount(closed.id); // its email and name are gone: a search finds it no more

    auto all = getJson(kList + "?q=" + tag, callers().admin);
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(all.json()["total"], 3);
    // Newest first by default.
    EXPECT_EQ(idsOf(all.json()), (std::vector<std::string>{c.id, b.id, a.id}));
    const auto row = all.json()["items"][2];
    EXPECT_EQ(row["email"], a.email);
    EXPECT_EQ(row["full_name"], "Aroha " + tag);
    EXPECT_EQ(row["two_factor"], true);
    EXPECT_EQ(row["is_admin"], false);
    EXPECT_EQ(row["closed"], false);
    EXPECT_FALSE(row["email_confirmed_at"].is_null());
    EXPECT_TRUE(row["last_sign_in_at"].is_null());
    EXPECT_FALSE(row.contains("encrypted_password"));

    // By name only (b's address does not carry the tag), case-insensitively.
    auto byName = getJson(kList + "?q=BEN%20" + tag, callers().admin);
    EXPECT_EQ(idsOf(byName.json()), std::vector<std::string>{b.id});

    EXPECT_EQ(idsOf(getJson(kList + "?q=" + tag + "&role=admin", callers().admin).json()), std::vector<std::string>{c.id});
    EXPECT_EQ(idsOf(getJson(kList + "?q=" + tag + "&two_factor=true", callers().admin).json()), std::vector<std::string>{a.id});
    EXPECT_EQ(idsOf(getJson(kList + "?q=" + tag + "&two_factor=false", callers().admin).json()),
              (std::vector<std::string>{c.id, b.id}));
    EXPECT_EQ(idsOf(getJson(kList + "?q=" + tag + "&unconfirmed=true", callers().admin).json()), std::vector<std::string>{b.id});

    // Sorts: email ascending, oldest first, and paging keeps the order.
    auto byEmail = getJson(kList + "?q=" + tag + "&sort=email", callers().admin);
    ASSERT_EQ(byEmail.status, 200) << byEmail.body;
    // cust-b-... < kowhai-...-a-... < kowhai-...-c-...
    EXPECT_EQ(idsOf(byEmail.json()), (std::vector<std::string>{b.id, a.id, c.id}));
    auto oldest = getJson(kList + "?q=" + tag + "&sort=created&dir=asc&page_size=2", callers().admin);
    EXPECT_EQ(oldest.json()["total"], 3);
    EXPECT_EQ(idsOf(oldest.json()), (std::vector<std::string>{a.id, b.id}));
    auto second = getJson(kList + "?q=" + tag + "&sort=created&dir=asc&page_size=2&page=2", callers().admin);
    EXPECT_EQ(idsOf(second.json()), std::vector<std::string>{c.id});

    // Last sign-in: the one who signed in comes first, never signed in last, in either direction.
    signIn(c, newClientIp());
    auto recent = getJson(kList + "?q=" + tag + "&sort=last_sign_in&dir=desc", callers().admin);
    ASSERT_EQ(recent.status, 200) << recent.body;
    EXPECT_EQ(recent.json()["items"][0]["id"], c.id);
    EXPECT_FALSE(recent.json()["items"][0]["last_sign_in_at"].is_null());
    auto ascending = getJson(kList + "?q=" + tag + "&sort=last_sign_in&dir=asc", callers().admin);
    EXPECT_EQ(ascending.json()["items"][0]["id"], c.id);

    // Closed accounts: only with closed=true, shown without email or name.
    auto closedList = getJson(kList + "?closed=true&sort=created&dir=desc&page_size=200", callers().admin);
    ASSERT_EQ(closedList.status, 200);
    bool found = false;
    const auto closedItems = closedList.json()["items"];
    for (const auto& item : closedItems) {
        EXPECT_EQ(item["closed"], true);
        if (item["id"] == closed.id) {
            found = true;
            EXPECT_TRUE(item["email"].is_null());
            EXPECT_TRUE(item["full_name"].is_null());
            EXPECT_FALSE(item["closed_at"].is_null());
        }
    }
    EXPECT_TRUE(found);

    // LIKE metacharacters are matched literally.
    EXPECT_EQ(getJson(kList + "?q=%25%25" + tag, callers().admin).json()["total"], 0);
}

TEST(AdminCustomersApi, BadFiltersSortsAndPagingAre422AndNameTheField) {
    const std::vector<std::string> queries = {"role=staff", "two_factor=yes", "unconfirmed=1", "closed=maybe", "sort=password",
                                              "sort=email&dir=up", "page=0", "page_size=201", "q=" + std::string(255, 'x')};
    for (const auto& query : queries) {
        auto res = getJson(kList + "?" + query, callers().admin);
        EXPECT_EQ(res.status, 422) << query;
        EXPECT_EQ(res.json()["code"], "validation_failed") << query;
        EXPECT_EQ(res.json()["fields"].size(), 1u) << query;
    }
}

TEST(AdminCustomersApi, TheDetailShowsTheAccountAndWhatBelongsToIt) {
    auto customer = namedCustomer("cust-detail", "Dev Patel", 10);
    auto session = signIn(customer, newClientIp());
    enrolVerifiedFactor(session);
    ClockShift later(std::chrono::milliseconds(50)); // the failed attempt is the newer event
    signInRequest(customer.email, "wrong-password", newClientIp());
    const auto order = insertOrder("paid", 4500, testClock().timestampAfter(-60), customer.email, customer.id);

    auto res = getJson(customerPath(customer.id), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto j = res.json();
    EXPECT_EQ(j["customer"]["id"], customer.id);
    EXPECT_EQ(j["customer"]["email"], customer.email);
    EXPECT_EQ(j["customer"]["full_name"], "Dev Patel");
    EXPECT_EQ(j["customer"]["two_factor"], true);
    EXPECT_FALSE(j["customer"]["last_sign_in_at"].is_null());
    ASSERT_EQ(j["orders"].size(), 1u);
    EXPECT_EQ(j["orders"][0]["id"], order.id);
    EXPECT_EQ(j["orders"][0]["order_number"], order.orderNumber);
    EXPECT_EQ(j["orders"][0]["total_amount"], 4500);
    EXPECT_EQ(j["orders"][0]["currency"], "NZD");
    EXPECT_TRUE(j["subscriptions"].is_array());
    EXPECT_TRUE(j["invoices"].is_array());
    EXPECT_TRUE(j["enterprise"].is_array());
    EXPECT_TRUE(j["wirewrite"].is_null());
    ASSERT_EQ(j["factors"].size(), 1u);
    EXPECT_EQ(j["factors"][0]["status"], "verified");
    EXPECT_FALSE(j["factors"][0].contains("secret"));
    EXPECT_EQ(res.body.find("v1:"), std::string::npos); // no sealed secret anywhere in the answer
    // Sign-in events, newest first: the failed attempt came after the sign-in.
    ASSERT_GE(j["sign_ins"].size(), 2u);
    EXPECT_EQ(j["sign_ins"][0]["action"], "login_failed");
    EXPECT_EQ(j["sign_ins"][1]["action"], "login");
    EXPECT_FALSE(j["sign_ins"][1]["client_address"].is_null());
    // Only sign-in events: enrolling a factor is not one.
    for (const auto& e : j["sign_ins"]) EXPECT_NE(e["action"], "mfa_enrolled");
}

TEST(AdminCustomersApi, ResendConfirmationMailsAnUnconfirmedCustomerOnly) {
    auto unconfirmed = createUser("cust-unconfirmed", false);
    auto res = postJson(customerPath(unconfirmed.id, "/resend-confirmation"), nlohmann::json::object(), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["customer"]["id"], unconfirmed.id);
    EXPECT_FALSE(res.json()["customer"]["confirmation_sent_at"].is_null());
    EXPECT_EQ(outboxCount("auth_confirm_signup", unconfirmed.email), 1);
    EXPECT_EQ(auditCount("confirmation_resent", unconfirmed.id), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'confirmation_resent' AND target_id = ? AND actor_id = ? "
                        "AND actor_role = 'admin'",
                        {unconfirmed.id, callers().adminId}),
              1);

    auto confirmed = createUser("cust-confirmed");
    auto refused = postJson(customerPath(confirmed.id, "/resend-confirmation"), nlohmann::json::object(), callers().admin);
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.json()["code"], "already_confirmed");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {confirmed.email}), 0);
    EXPECT_EQ(auditCount("confirmation_resent", confirmed.id), 0);
}

TEST(AdminCustomersApi, SendRecoveryMailsTheRecoveryLinkAndAudits) {
    auto customer = createUser("cust-recovery");
    auto res = postJson(customerPath(customer.id, "/send-recovery"), nlohmann::json::object(), callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_FALSE(res.json()["customer"]["recovery_sent_at"].is_null());
    EXPECT_EQ(outboxCount("auth_recovery", customer.email), 1);
    EXPECT_EQ(auditCount("recovery_sent", customer.id), 1);
    // The same mail /auth/v1/recover sends: it arrives with a working recovery link.
    auto link = waitForLink(customer.email, "recovery");
    auto followed = followLink(link, newClientIp());
    ASSERT_EQ(followed.status, 303);
    EXPECT_EQ(redirectOf(followed).fragment["type"], "recovery");
    // The answer never carries a password or a link.
    EXPECT_EQ(res.body.find("encrypted_password"), std::string::npos);
    EXPECT_EQ(res.body.find("/auth/v1/verify"), std::string::npos);
}

TEST(AdminCustomersApi, ResettingTwoFactorNeedsAReasonAndSignsTheStrongSessionsOut) {
    auto customer = createUser("cust-factors");
    auto session = signIn(customer, newClientIp());
    enrolVerifiedFactor(session); // the session is now aal2
    auto weak = signIn(customer, newClientIp()); // an aal1 session

    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"reason", "   "}}, nlohmann::json{{"reason", 7}},
                             nlohmann::json{{"reason", std::string(501, 'r')}}}) {
        auto res = del(customerPath(customer.id, "/factors"), callers().admin, body);
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed");
        EXPECT_TRUE(res.json()["fields"].contains("reason")) << res.body;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {customer.id}), 1);

    auto res = del(customerPath(customer.id, "/factors"), callers().admin, {{"reason", "  Lost their phone, called from the shop  "}});
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["factors"].size(), 0u);
    EXPECT_EQ(res.json()["customer"]["two_factor"], false);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {customer.id}), 0);
    EXPECT_EQ(userRequest(session).status, 403) << "the aal2 session is signed out";
    EXPECT_EQ(userRequest(weak).status, 200) << "the aal1 session stays";
    auto detail = textColumn("SELECT detail FROM audit_log WHERE action = 'mfa_factors_reset' AND target_id = ?", {customer.id});
    ASSERT_EQ(detail.size(), 1u);
    EXPECT_EQ(nlohmann::json::parse(detail[0])["reason"], "Lost their phone, called from the shop");

    auto again = del(customerPath(customer.id, "/factors"), callers().admin, {{"reason", "Again"}});
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "no_factors");
}

TEST(AdminCustomersApi, GrantingAndRevokingAdminIsIdempotentAndAudited) {
    auto customer = createUser("cust-role");
    auto granted = putJson(customerPath(customer.id, "/roles/admin"), nlohmann::json::object(), callers().admin);
    ASSERT_EQ(granted.status, 200) << granted.body;
    EXPECT_EQ(granted.json()["customer"]["is_admin"], true);
    EXPECT_FALSE(granted.json()["customer"]["admin_since"].is_null());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ? AND role = 'admin' AND granted_by = ?",
                        {customer.id, callers().adminId}),
              1);
    EXPECT_EQ(putJson(customerPath(customer.id, "/roles/admin"), nlohmann::json::object(), callers().admin).status, 200);
    EXPECT_EQ(auditCount("role_granted", customer.id), 1);

    auto revoked = del(customerPath(customer.id, "/roles/admin"), callers().admin);
    ASSERT_EQ(revoked.status, 200) << revoked.body;
    EXPECT_EQ(revoked.json()["customer"]["is_admin"], false);
    EXPECT_EQ(del(customerPath(customer.id, "/roles/admin"), callers().admin).status, 200);
    EXPECT_EQ(auditCount("role_revoked", customer.id), 1);
}

TEST(AdminCustomersApi, TheLastAdminCannotBeRevokedButAnotherCanRevokeThemself) {
    auto other = createStaffAdmin(newClientIp());
    OnlyTheseAdmins only({callers().adminId, other.account.id});

    // Two admins: one may revoke their own role.
    auto self = del(customerPath(other.account.id, "/roles/admin"), other.session.headers());
    ASSERT_EQ(self.status, 200) << self.body;
    EXPECT_EQ(self.json()["customer"]["is_admin"], false);
    EXPECT_EQ(getJson(kList, other.session.headers()).status, 403);

    // One admin left: refused with the reason, and nothing changes.
    auto last = del(customerPath(callers().adminId, "/roles/admin"), callers().admin);
    EXPECT_EQ(last.status, 409);
    EXPECT_EQ(last.json()["code"], "last_admin");
    EXPECT_NE(last.json()["message"].get<std::string>().find("last admin"), std::string::npos);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ? AND role = 'admin'", {callers().adminId}), 1);
    EXPECT_EQ(auditCount("role_revoked", callers().adminId), 0);
    EXPECT_EQ(getJson(kList, callers().admin).status, 200);
}

TEST(AdminCustomersApi, ClosedAccountsAreShownButTheirActionsAre409) {
    auto customer = createUser("cust-closed", false);
    closeAccount(customer.id);

    auto detail = getJson(customerPath(customer.id), callers().admin);
    ASSERT_EQ(detail.status, 200) << detail.body;
    EXPECT_EQ(detail.json()["customer"]["closed"], true);
    EXPECT_TRUE(detail.json()["customer"]["email"].is_null());

    const std::vector<HttpResult> answers = {
        postJson(customerPath(customer.id, "/resend-confirmation"), nlohmann::json::object(), callers().admin),
        postJson(customerPath(customer.id, "/send-recovery"), nlohmann::json::object(), callers().admin),
        del(customerPath(customer.id, "/factors"), callers().admin, {{"reason", "Lost phone"}}),
        putJson(customerPath(customer.id, "/roles/admin"), nlohmann::json::object(), callers().admin),
        del(customerPath(customer.id, "/roles/admin"), callers().admin),
    };
    for (const auto& res : answers) {
        EXPECT_EQ(res.status, 409) << res.body;
        EXPECT_EQ(res.json()["code"], "customer_closed");
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ?", {customer.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {customer.id}), 0);
}

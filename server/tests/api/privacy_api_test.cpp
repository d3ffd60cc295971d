// "Download my data" (GET /api/v1/account/export) and "Close my account" (DELETE /api/v1/account):
// docs/privacy.md. The real server, on SQLite and PostgreSQL.
#include "api/admin_support.h"
#include "api/billing_support.h"
#include "api/enterprise_support.h"
#include "api/fake_stripe.h"
#include "db/database.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace testing_support;

namespace {

HttpResult exportOf(const Session& s) { return getJson("/api/v1/account/export", s.headers()); }

HttpResult closeAccount(const Session& s, const nlohmann::json& body, int port = 0) {
    return sendJson(port ? port : env().port, "DELETE", "/api/v1/account", body, s.headers());
}

std::string userColumn(const std::string& column, const std::string& userId) {
    auto v = textColumn("SELECT CAST(" + column + " AS TEXT) FROM users WHERE id = ?", {userId});
    return v.empty() ? "<no row>" : v.at(0);
}

bool isClosed(const std::string& userId) {
    return countRows("SELECT COUNT(*) FROM users WHERE id = ? AND deleted_at IS NOT NULL", {userId}) == 1;
}

// A paid hardware order through the local provider's TEST MODE page (with a shipping address and
// a tax invoice): its id.
std::string buyHardware(const Session& buyer) {
    auto product = createHardware(5, 2500);
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", 1}});
    EXPECT_EQ(started.status, 200) << started.body;
    EXPECT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?",
                      {started.json()["checkoutId"].get<std::string>()})
        .at(0);
}

// A live subscription through the local provider: its provider id (sub_local_...).
std::string subscribeLocally(const Session& buyer) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    EXPECT_EQ(started.status, 200) << started.body;
    EXPECT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    return textColumn("SELECT provider_subscription_id FROM subscriptions WHERE user_id = ? AND status = 'active'",
                      {buyer.userId})
        .at(0);
}

void addWireWriteData(const std::string& userId, const std::string& email) {
    const auto worker = storefront::db::newId();
    execSql("INSERT INTO worker_profiles (id, user_id, full_name, email, ewrb_licence_number, entitlement, created_at, "
            "updated_at) VALUES (?, ?, 'Mere Tamihana', ?, 'EW-123456', 'free', '2026-05-01T00:00:00.000Z', "
            "'2026-05-01T00:00:00.000Z')",
            {worker, userId, email});
    execSql("INSERT INTO certificates (id, worker_id, certificate_number, site_location, status, created_at, updated_at, "
            "issued_at) VALUES (?, ?, ?, '12 Rata Road, Nelson', 'issued', '2026-05-02T00:00:00.000Z', "
            "'2026-05-02T00:00:00.000Z', '2026-05-02T00:00:00.000Z')",
            {storefront::db::newId(), worker, unique("CERT-")});
}

// The other staff admins step aside (their roles are put back when it goes), so the test's admin is
// the last one.
class OnlyAdmin {
public:
    explicit OnlyAdmin(const std::string& keep) {
        saved_ = textColumn("SELECT CAST(user_id AS TEXT) || '|' || CAST(granted_at AS TEXT) FROM user_roles "
                            "WHERE role = 'admin' AND user_id <> ?",
                            {keep});
        execSql("DELETE FROM user_roles WHERE role = 'admin' AND user_id <> ?", {keep});
    }
    ~OnlyAdmin() {
        for (const auto& row : saved_) {
            const auto bar = row.find('|');
            execSql("INSERT INTO user_roles (user_id, role, granted_at) VALUES (?, 'admin', ?)",
                    {row.substr(0, bar), row.substr(bar + 1)});
        }
    }

private:
    std::vector<std::string> saved_;
};

} // namespace

TEST(PrivacyExport, AUserWithNoDataGetsAValidFileWithEmptyLists) {
    auto account = createUser("export-empty");
    auto session = signIn(account, newClientIp());
    auto r = exportOf(session);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.header("content-disposition").find("attachment; filename=\"storefront-data-"), std::string::npos);
    EXPECT_NE(r.header("content-disposition").find(".json\""), std::string::npos);
    EXPECT_EQ(r.header("cache-control"), "no-store");
    auto j = r.json();
    EXPECT_EQ(j["format"], "storefront-data/1");
    EXPECT_EQ(j["profile"]["id"], account.id);
    EXPECT_EQ(j["profile"]["email"], account.email);
    for (const char* list : {"sign_in_factors", "orders", "subscriptions", "invoices", "enterprise_memberships",
                             "contact_messages"}) {
        ASSERT_TRUE(j[list].is_array()) << list;
        EXPECT_TRUE(j[list].empty()) << list << ": " << j[list].dump();
    }
    EXPECT_TRUE(j["wirewrite"]["profile"].is_null());
    EXPECT_TRUE(j["wirewrite"]["certificates"].empty());
    // The sign-in that made the session is the account's own event.
    ASSERT_FALSE(j["sign_in_events"].empty());
    EXPECT_EQ(j["sign_in_events"].back()["event"], "login");
    EXPECT_EQ(auditCount("account.exported", account.id), 1);
}

TEST(PrivacyExport, HoldsEverythingAboutTheUserAndNoSecret) {
    auto account = createUser("export-full");
    auto session = signIn(account, newClientIp());
    auto factor = enrolVerifiedFactor(session);
    const auto orderId = buyHardware(session);
    const auto subscription = subscribeLocally(session);
    addWireWriteData(account.id, account.email);
    auto team = createTeam("export");
    ASSERT_EQ(addMember(team, account.email).status, 201);
    // Sent signed in: the message is the account's (one sent without a session is not).
    auto contact = postJson("/api/v1/contact",
                            {{"name", "Mere"}, {"email", account.email}, {"message", "Do you ship to Tonga?"}},
                            session.headers());
    ASSERT_EQ(contact.status, 201) << contact.body;

    auto r = exportOf(session);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    ASSERT_EQ(j["sign_in_factors"].size(), 1u);
    EXPECT_EQ(j["sign_in_factors"][0]["id"], factor.id);
    EXPECT_EQ(j["sign_in_factors"][0]["factor_type"], "totp");
    EXPECT_EQ(j["sign_in_factors"][0]["status"], "verified");
    EXPECT_FALSE(j["sign_in_factors"][0].contains("secret"));

    ASSERT_GE(j["orders"].size(), 1u);
    nlohmann::json hardware;
    for (const auto& o : j["orders"])
        if (o["id"] == orderId) hardware = o;
    ASSERT_TRUE(hardware.is_object()) << j["orders"].dump();
    EXPECT_EQ(hardware["status"], "paid");
    ASSERT_EQ(hardware["items"].size(), 1u);
    EXPECT_EQ(hardware["items"][0]["unit_amount"], 2500);
    EXPECT_EQ(hardware["shipping_address"]["line1"], "12 Kauri Street");

    ASSERT_EQ(j["subscriptions"].size(), 1u);
    EXPECT_EQ(j["subscriptions"][0]["status"], "active");
    ASSERT_GE(j["invoices"].size(), 1u);
    const std::string number = j["invoices"][0]["number"];
    EXPECT_EQ(j["invoices"][0]["api_url"], "/api/v1/account/invoices/" + number);
    EXPECT_EQ(getJson(j["invoices"][0]["api_url"], session.headers()).status, 200);

    ASSERT_EQ(j["enterprise_memberships"].size(), 1u);
    EXPECT_EQ(j["enterprise_memberships"][0]["account_id"], team.accountId);
    EXPECT_EQ(j["enterprise_memberships"][0]["role"], "member");
    EXPECT_EQ(j["wirewrite"]["profile"]["ewrb_licence_number"], "EW-123456");
    ASSERT_EQ(j["wirewrite"]["certificates"].size(), 1u);
    EXPECT_EQ(j["wirewrite"]["certificates"][0]["site_location"], "12 Rata Road, Nelson");
    ASSERT_EQ(j["contact_messages"].size(), 1u);
    EXPECT_EQ(j["contact_messages"][0]["message"], "Do you ship to Tonga?");

    // No secret of any kind: the password hash, the TOTP secret, token hashes, refresh tokens.
    const std::string body = r.body;
    EXPECT_EQ(body.find("$argon2"), std::string::npos);
    EXPECT_EQ(body.find(factor.secret), std::string::npos);
    EXPECT_EQ(body.find(session.refreshToken), std::string::npos);
    for (const auto& hash : textColumn("SELECT token_hash FROM auth_one_time_tokens WHERE user_id = ?", {account.id}))
        EXPECT_EQ(body.find(hash), std::string::npos);
    for (const auto& stored : textColumn("SELECT secret FROM mfa_factors WHERE user_id = ?", {account.id}))
        EXPECT_EQ(body.find(stored), std::string::npos);
    for (const char* key : {"encrypted_password", "secret", "token_hash", "refresh_token"})
        EXPECT_EQ(body.find(std::string("\"") + key + "\""), std::string::npos) << key;
    (void)subscription;
}

TEST(PrivacyExport, NeedsASignedInUser) {
    EXPECT_EQ(getJson("/api/v1/account/export").status, 401);
    EXPECT_EQ(del("/api/v1/account", {}, {{"password", "x"}}).status, 401);
}

TEST(PrivacyClose, AWrongOrMissingPasswordChangesNothing) {
    auto account = createUser("close-wrong");
    auto session = signIn(account, newClientIp());
    auto missing = closeAccount(session, nlohmann::json::object());
    EXPECT_EQ(missing.status, 422) << missing.body;
    EXPECT_EQ(missing.json()["fields"].contains("password"), true);
    auto wrong = closeAccount(session, {{"password", account.password + "x"}});
    EXPECT_EQ(wrong.status, 400) << wrong.body;
    EXPECT_EQ(wrong.json()["code"], "invalid_credentials");
    auto badType = closeAccount(session, {{"password", 12345}});
    EXPECT_EQ(badType.status, 422) << badType.body;
    auto notJson = sendRaw("DELETE", "/api/v1/account", "password=x", "application/x-www-form-urlencoded", session.headers());
    EXPECT_EQ(notJson.status, 415);
    auto empty = sendRaw("DELETE", "/api/v1/account", "", "application/json", session.headers());
    EXPECT_EQ(empty.status, 400);

    EXPECT_FALSE(isClosed(account.id));
    EXPECT_EQ(userRequest(session).status, 200);
    EXPECT_EQ(signInRequest(account.email, account.password, newClientIp()).status, 200);
    EXPECT_EQ(auditCount("account.closed", account.id), 0);
}

TEST(PrivacyClose, WithTwoFactorOnItNeedsAFreshCode) {
    auto account = createUser("close-2fa");
    auto session = signIn(account, newClientIp());
    auto factor = enrolVerifiedFactor(session);

    auto noCode = closeAccount(session, {{"password", account.password}});
    EXPECT_EQ(noCode.status, 422) << noCode.body;
    EXPECT_TRUE(noCode.json()["fields"].contains("code"));
    auto badCode = closeAccount(session, {{"password", account.password}, {"code", wrongCode(factor.secret)}});
    EXPECT_EQ(badCode.status, 400) << badCode.body;
    EXPECT_EQ(badCode.json()["code"], "mfa_verification_failed");
    // The password is checked first: a refused attempt does not spend the code.
    const auto code = nextCode(factor);
    auto wrongPassword = closeAccount(session, {{"password", "not-the-password"}, {"code", code}});
    EXPECT_EQ(wrongPassword.status, 400);
    EXPECT_FALSE(isClosed(account.id));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id}), 1);

    auto ok = closeAccount(session, {{"password", account.password}, {"code", code}});
    EXPECT_EQ(ok.status, 204) << ok.body;
    EXPECT_TRUE(isClosed(account.id));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id}), 0);
}

TEST(PrivacyClose, RemovesThePersonAndKeepsOrdersAndInvoicesAsClosedAccount) {
    auto account = createUser("close-full");
    auto session = signIn(account, newClientIp());
    const auto orderId = buyHardware(session);
    const auto subscription = subscribeLocally(session);
    addWireWriteData(account.id, account.email);
    auto team = createTeam("closing");
    ASSERT_EQ(addMember(team, account.email).status, 201);
    const auto number =
        textColumn("SELECT number FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {orderId}).at(0);
    const auto other = signIn(account, newClientIp()); // a second device

    auto r = closeAccount(session, {{"password", account.password}});
    ASSERT_EQ(r.status, 204) << r.body;

    // The tombstone: the id stays, nothing that names the person.
    EXPECT_TRUE(isClosed(account.id));
    for (const char* column : {"email", "phone", "encrypted_password", "email_change"})
        EXPECT_EQ(countRows(std::string("SELECT COUNT(*) FROM users WHERE id = ? AND ") + column + " IS NULL", {account.id}), 1)
            << column;
    EXPECT_EQ(userColumn("raw_user_meta_data", account.id), "{}");
    for (const char* table : {"profiles WHERE id = ?", "user_roles WHERE user_id = ?", "mfa_factors WHERE user_id = ?",
                              "auth_sessions WHERE user_id = ?", "auth_one_time_tokens WHERE user_id = ?",
                              "worker_profiles WHERE user_id = ?", "enterprise_members WHERE user_id = ?"})
        EXPECT_EQ(countRows(std::string("SELECT COUNT(*) FROM ") + table, {account.id}), 0) << table;
    EXPECT_EQ(memberCount(team.accountId), 1); // the team's admin only

    // Both devices are signed out at once (a token of an ended session: 403).
    EXPECT_EQ(userRequest(session).status, 403);
    EXPECT_EQ(userRequest(other).status, 403);
    EXPECT_EQ(refreshRequest(other.refreshToken, other.ip).status, 400);

    // The subscription was cancelled through the provider (the local one emits the deletion event).
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND status IN ('active', 'trialing', 'pending')",
                        {account.id}),
              0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_events WHERE provider = 'local' AND event_id = ?",
                        {"evt_local_" + subscription + "_deleted"}),
              1);

    // Staff see the kept order and invoice as "Closed account", and the old address finds nothing.
    auto order = getJson("/api/v1/admin/orders/" + orderId, callers().admin);
    ASSERT_EQ(order.status, 200) << order.body;
    EXPECT_EQ(order.body.find(account.email), std::string::npos) << order.body;
    EXPECT_NE(order.body.find("Closed account"), std::string::npos) << order.body;
    auto list = getJson("/api/v1/admin/orders?q=" + account.email, callers().admin);
    ASSERT_EQ(list.status, 200);
    EXPECT_EQ(list.json()["total"], 0);
    auto invoice = getJson("/api/v1/admin/invoices/" + number, callers().admin);
    ASSERT_EQ(invoice.status, 200) << invoice.body;
    EXPECT_EQ(invoice.json()["buyer"]["email"], "Closed account");
    EXPECT_EQ(invoice.json()["buyer"]["name"], "Closed account");
    EXPECT_EQ(invoice.body.find(account.email), std::string::npos);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ?", {orderId}), 1);

    // Audited, without the address anywhere in the log.
    EXPECT_EQ(auditCount("account.closed", account.id), 1);
    const auto like = "%" + account.email + "%";
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE actor_email = ? OR detail LIKE ? OR before_json LIKE ? "
                        "OR after_json LIKE ?",
                        {account.email, like, like, like}),
              0);
}

TEST(PrivacyClose, SignInAfterwardsFailsAsForAnUnknownEmailAndTheAddressCanSignUpAgain) {
    auto account = createUser("close-again");
    auto session = signIn(account, newClientIp());
    ASSERT_EQ(closeAccount(session, {{"password", account.password}}).status, 204);

    auto closed = signInRequest(account.email, account.password, newClientIp());
    auto unknown = signInRequest(newEmail("never"), account.password, newClientIp());
    EXPECT_EQ(closed.status, unknown.status);
    EXPECT_EQ(closed.json()["code"], unknown.json()["code"]);
    EXPECT_EQ(closed.json()["message"], unknown.json()["message"]);

    const int port = serverWith({{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}});
    auto signup = sendJson(port, "POST", "/auth/v1/signup", {{"email", account.email}, {"password", "A-new-pass-2026!"}},
                           as(newClientIp()));
    ASSERT_EQ(signup.status, 200) << signup.body;
    const std::string newId = signup.json()["user"]["id"];
    EXPECT_NE(newId, account.id);
    EXPECT_TRUE(isClosed(account.id));
}

TEST(PrivacyClose, IsRefusedForAnEnterpriseAdmin) {
    auto team = createTeam("close-owner");
    auto r = closeAccount(team.session, {{"password", team.admin.password}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(r.json()["code"], "enterprise_admin");
    EXPECT_NE(r.json()["message"].get<std::string>().find("Hand it over"), std::string::npos);
    EXPECT_FALSE(isClosed(team.admin.id));
    EXPECT_EQ(userRequest(team.session).status, 200);
}

TEST(PrivacyClose, IsRefusedForTheLastStaffAdmin) {
    auto admin = createStaffAdmin(newClientIp());
    const auto code = nextCode(admin.factor);
    {
        OnlyAdmin only(admin.account.id);
        // Refused before the password and code are checked, so the code is still good below.
        auto r = closeAccount(admin.session, {{"password", admin.account.password}, {"code", code}});
        EXPECT_EQ(r.status, 409) << r.body;
        EXPECT_EQ(r.json()["code"], "last_admin");
        EXPECT_FALSE(isClosed(admin.account.id));
    }
    // With another admin there, the admin may go.
    auto r = closeAccount(admin.session, {{"password", admin.account.password}, {"code", code}});
    EXPECT_EQ(r.status, 204) << r.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM user_roles WHERE user_id = ?", {admin.account.id}), 0);
}

TEST(PrivacyClose, AStripeSubscriptionIsCancelledFirstAndAProviderFailureChangesNothing) {
    const int port = fakeStripeServer();
    auto& stripe = fakeStripe();
    auto account = createUser("close-stripe");
    auto session = signIn(account, newClientIp());
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    const auto subId = unique("sub_close_");
    execSql("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, "
            "provider_subscription_id, provider_customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'active', "
            "'stripe', ?, 'cus_fake_close', '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')",
            {storefront::db::newId(), account.id, product.id, planId, subId});

    stripe.failNext(500, "Stripe is down", "api_error", "/v1/subscriptions/");
    auto failed = closeAccount(session, {{"password", account.password}}, port);
    EXPECT_EQ(failed.status, 502) << failed.body;
    EXPECT_EQ(failed.json()["code"], "payment_provider_error");
    EXPECT_FALSE(isClosed(account.id));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id = ? AND status = 'active'", {subId}), 1);
    EXPECT_EQ(userRequest(session).status, 200);

    stripe.clearRequests();
    auto ok = closeAccount(session, {{"password", account.password}}, port);
    ASSERT_EQ(ok.status, 204) << ok.body;
    EXPECT_EQ(stripe.requests("DELETE", "/v1/subscriptions/" + subId).size(), 1u);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE provider_subscription_id = ? AND status = 'cancelled'", {subId}), 1);
    EXPECT_TRUE(isClosed(account.id));
}

TEST(PrivacyExport, AContactMessageBelongsToAnAccountOnlyThroughItsSignedInSender) {
    auto account = createUser("export-contact");
    auto session = signIn(account, newClientIp());
    // A stranger types the customer's address into the form: not the customer's message.
    auto planted = postJson("/api/v1/contact",
                            {{"name", "Not Mere"}, {"email", account.email}, {"message", "Planted by someone else."}},
                            as(newClientIp()));
    ASSERT_EQ(planted.status, 201) << planted.body;
    // So is one sent with a token that does not check out (it is sent as anyone's).
    auto forged = postJson("/api/v1/contact",
                           {{"name", "Not Mere"}, {"email", account.email}, {"message", "A forged token."}},
                           as(newClientIp(), "not-a-token"));
    ASSERT_EQ(forged.status, 201) << forged.body;
    // The customer's own, signed in, under any address they like.
    auto own = postJson("/api/v1/contact",
                        {{"name", "Mere"}, {"email", "mere.work@example.nz"}, {"message", "Mine, from my work address."}},
                        session.headers());
    ASSERT_EQ(own.status, 201) << own.body;

    auto r = exportOf(session);
    ASSERT_EQ(r.status, 200) << r.body;
    const auto messages = r.json()["contact_messages"];
    ASSERT_EQ(messages.size(), 1u) << messages.dump();
    EXPECT_EQ(messages[0]["message"], "Mine, from my work address.");
    EXPECT_EQ(r.body.find("Planted by someone else."), std::string::npos);
    // Staff still see every enquiry.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", {account.email}), 2);

    // A new account at a closed account's address sees nothing of the old one's.
    ASSERT_EQ(closeAccount(session, {{"password", account.password}}).status, 204);
    const int port = serverWith({{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}});
    auto signUp = sendJson(port, "POST", "/auth/v1/signup", {{"email", account.email}, {"password", "A-new-pass-2026!"}},
                           as(newClientIp()));
    ASSERT_EQ(signUp.status, 200) << signUp.body;
    ASSERT_NE(signUp.json()["user"]["id"], account.id);
    auto fresh = http(port, "GET", "/api/v1/account/export", "", as(newClientIp(), signUp.json()["access_token"]));
    ASSERT_EQ(fresh.status, 200) << fresh.body;
    EXPECT_EQ(fresh.json()["contact_messages"].size(), 0u) << fresh.body;
}

TEST(PrivacyClose, CheckoutsStartedWhileTheAccountClosesAreNeitherOpenNorPayableAfterwards) {
    constexpr int kCheckouts = 15;
    auto account = createUser("close-race");
    auto session = signIn(account, newClientIp());
    auto product = createHardware(1000, 2500);

    // Fifteen buyers' tabs keep starting checkouts until the closing has answered, so some start
    // before it, some while the provider is being told, some inside its transaction.
    std::vector<std::vector<HttpResult>> tabs(kCheckouts);
    std::atomic<bool> done{false};
    HttpResult closed;
    {
        std::vector<std::thread> threads;
        for (int i = 0; i < kCheckouts; ++i)
            threads.emplace_back([&, i] {
                auto& mine = tabs[static_cast<std::size_t>(i)];
                for (int n = 0; n < 30 && !done; ++n) {
                    mine.push_back(startCheckout(session, {{"productSlug", product.slug}, {"quantity", 1}}));
                    if (mine.back().status == 403) break; // the session has ended
                }
            });
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        closed = closeAccount(session, {{"password", account.password}});
        done = true;
        for (auto& t : threads) t.join();
    }
    std::vector<HttpResult> started;
    for (auto& tab : tabs) started.insert(started.end(), tab.begin(), tab.end());
    ASSERT_EQ(closed.status, 204) << closed.body;
    int opened = 0;
    for (const auto& r : started) {
        // Before the closing: a checkout (ended by it); after: the account or its session is gone.
        EXPECT_TRUE(r.status == 200 || r.status == 403 || r.status == 404) << r.status << " " << r.body;
        if (r.status == 200) ++opened;
    }

    // Nothing of the user is open at our end...
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE user_id = ? AND status IN ('creating', 'open')",
                        {account.id}),
              0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'pending'", {account.id}), 0);
    // ...or payable at the provider's: paying any checkout that was handed out changes nothing.
    for (const auto& r : started)
        if (r.status == 200) pressButton(r.json()["url"], "pay");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE user_id = ? AND status <> 'cancelled'", {account.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE user_id = ?", {account.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE document LIKE ?", {"%" + account.email + "%"}), 0);
    EXPECT_EQ(stockOf(product.id), 1000); // every reservation came back
    std::cout << "[ figures  ] " << opened << " of " << started.size() << " checkouts started by " << kCheckouts
              << " tabs racing the closing were handed out; none is left open or payable" << std::endl;
}

TEST(PrivacyClose, APaymentTheProviderStillReportsForAClosedAccountIsALatePaymentWithNoInvoice) {
    auto account = createUser("close-late");
    auto session = signIn(account, newClientIp());
    auto product = createHardware(10, 2500);
    auto started = startCheckout(session, {{"productSlug", product.slug}, {"quantity", 1}});
    ASSERT_EQ(started.status, 200) << started.body;
    const auto checkoutId = started.json()["checkoutId"].get<std::string>();
    // The provider could not be told (its session stays payable there): the checkout is open in
    // our rows again, as if the closing's expiry had never reached it.
    ASSERT_EQ(closeAccount(session, {{"password", account.password}}).status, 204);
    ASSERT_EQ(orderStatusOfCheckout(checkoutId), "cancelled");
    execSql("UPDATE checkout_sessions SET status = 'open' WHERE id = ?", {checkoutId});

    pressButton(started.json()["url"], "pay");
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "cancelled");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders o JOIN checkout_sessions c ON c.order_id = o.id WHERE c.id = ? "
                        "AND o.paid_after_cancellation",
                        {checkoutId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE user_id = ?", {account.id}), 0);
}

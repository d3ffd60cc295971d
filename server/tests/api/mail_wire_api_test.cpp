// Every kind of mail the server writes, on the wire: each is made by the real flow (sign-up,
// recovery, invitation, email change, the security notices, enterprise account, paid order,
// contact enquiry; the WireWrite inactivity warning by the job's own composer), taken from the
// outbox as the delivery
// job takes it, and sent by the SMTP transport to a real SMTP server on loopback (Debian's
// aiosmtpd, server/tests/mail/smtp_sink.py). Each message it received is then parsed by Python's
// email package under the strict default policy: CRLF only, no line over 998 octets, no defect,
// Date / Message-ID (on the sender's domain) / MIME-Version and the rest present and well formed,
// the decoded subject, addresses and text what the server meant, and beside the text an HTML part
// with the kind's heading, the company's footer and the text's links (mail/html_part.h).
//
// Why not a second server whose outbox job sends to the sink: every server on the shared test
// database runs the delivery job, so the suite's own server would deliver some of the mail to its
// fake relay first. The transport and the stored rows are the ones the job uses.
#include "api/auth_support.h"
#include "api/billing_support.h"
#include "api/enterprise_support.h"

#include "companion/inactivity_job.h"
#include "db/database.h"
#include "billing/subscriptions/subscription_mail.h"
#include "mail/kinds.h"
#include "mail/outbox_repository.h"
#include "mail/transport.h"
#include "mail/wire.h"

#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <set>
#include <thread>

using namespace testing_support;
namespace fs = std::filesystem;
namespace mail = storefront::mail;

namespace {

const std::string kPython = "/usr/bin/python3"; // Debian's, where python3-aiosmtpd is installed
const std::string kSink = std::string(STOREFRONT_SOURCE_DIR) + "/tests/mail/smtp_sink.py";

struct Finished {
    int exitCode = -1;
    std::string out;
};

Finished runPython(const std::vector<std::string>& args) {
    Poco::Pipe out;
    auto handle = Poco::Process::launch(kPython, args, nullptr, &out, &out);
    Poco::PipeInputStream stream(out);
    Finished f;
    f.out.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
    f.exitCode = handle.wait();
    return f;
}

// The sink as a child process: it stops when its standard input closes (here, or when this test
// process dies), and is killed if it has not after a few seconds.
class SmtpSink {
public:
    SmtpSink() : folder_(fs::path(::testing::TempDir()) / ("smtp-sink-" + storefront::db::newId())) {
        handle_ = std::make_unique<Poco::ProcessHandle>(
            Poco::Process::launch(kPython, {kSink, "serve", folder_.string()}, &in_, &out_, nullptr));
        Poco::PipeInputStream stream(out_);
        std::string line;
        std::getline(stream, line);
        try {
            port_ = std::stoi(line);
        } catch (const std::exception&) {
            stop();
            throw std::runtime_error("the SMTP sink did not start (is python3-aiosmtpd installed?): '" + line + "'");
        }
    }
    ~SmtpSink() {
        stop();
        std::error_code ignored;
        fs::remove_all(folder_, ignored);
    }
    int port() const { return port_; }
    // The messages received so far, oldest first (a message counts once its envelope file is written).
    std::vector<fs::path> messages() const {
        std::vector<fs::path> files;
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(folder_, ec))
            if (entry.path().extension() == ".json") files.push_back(fs::path(entry.path()).replace_extension(".eml"));
        std::sort(files.begin(), files.end());
        return files;
    }
    fs::path folder() const { return folder_; }

private:
    void stop() {
        if (!handle_) return;
        in_.close(Poco::Pipe::CLOSE_WRITE);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (Poco::Process::isRunning(*handle_) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (Poco::Process::isRunning(*handle_)) Poco::Process::kill(*handle_);
        handle_->wait();
        handle_.reset();
    }

    fs::path folder_;
    Poco::Pipe in_, out_;
    std::unique_ptr<Poco::ProcessHandle> handle_;
    int port_ = 0;
};

// Every `kind = "..."` of a mail::MailMessage in the server's sources: a new kind of mail fails the
// test until it is covered here.
std::set<std::string> kindsInTheSources() {
    static const std::regex assignment(R"(\.kind = \"([a-z_]+)\")");
    std::set<std::string> kinds;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(STOREFRONT_SOURCE_DIR) / "src")) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream in(entry.path());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.find("MailMessage") == std::string::npos) continue;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), assignment); it != std::sregex_iterator(); ++it)
            kinds.insert((*it)[1]);
    }
    return kinds;
}

// The newest outbox row of `kind` to `to` (optionally with `replyTo`), once it is there.
std::string outboxId(const std::string& kind, const std::string& to, const std::string& replyTo = "") {
    std::vector<std::string> ids;
    eventually([&] {
        ids = replyTo.empty()
                  ? textColumn("SELECT CAST(id AS TEXT) FROM mail_outbox WHERE kind = ? AND to_address = ? ORDER BY created_at DESC",
                               {kind, to})
                  : textColumn("SELECT CAST(id AS TEXT) FROM mail_outbox WHERE kind = ? AND to_address = ? AND reply_to = ? "
                               "ORDER BY created_at DESC",
                               {kind, to, replyTo});
        return !ids.empty();
    });
    if (ids.empty()) throw std::runtime_error("no " + kind + " mail to " + to + " in the outbox");
    return ids.front();
}

mail::MailMessage stored(const std::string& id) {
    auto row = mail::OutboxRepository(*env().db).load(id);
    if (!row) throw std::runtime_error("outbox row " + id + " vanished");
    return row->message;
}

const std::string kStrongPassword = "Kauri-tree-Ōtautahi-" + storefront::db::newId().substr(0, 6);

} // namespace

TEST(MailWireApi, EveryKindOfMailTheServerWritesPassesARealSmtpServerAndAStrictParser) {
    SmtpSink sink;
    // A sender with a non-ASCII display name, on the domain the Message-ID must use.
    const std::string from = "Signalcraft Ōtautahi <no-reply@mail.signalcraft.test>";
    mail::SmtpTransport transport("127.0.0.1", sink.port(), "", "", "none", 5, env().server->config().mail.brand);
    std::vector<std::pair<mail::MailMessage, fs::path>> sent;
    auto send = [&](const mail::MailMessage& m) {
        const auto before = sink.messages().size();
        transport.send(m, from, storefront::db::newId()); // returns once the sink answered 250: the files are written
        const auto after = sink.messages();
        ASSERT_EQ(after.size(), before + 1) << m.kind;
        sent.emplace_back(m, after.back());
    };

    // Sign-up confirmation, with a display name in the user data.
    const auto ip = newClientIp();
    const auto signupEmail = newEmail("wire-signup");
    auto signup = postJson("/auth/v1/signup",
                           {{"email", signupEmail}, {"password", kStrongPassword}, {"data", {{"full_name", "Mere Ōtautahi"}}}}, as(ip));
    ASSERT_EQ(signup.status, 200) << signup.body;
    send(stored(outboxId("auth_confirm_signup", signupEmail)));

    // Password recovery.
    auto forgetful = createUser("wire-recover");
    ASSERT_EQ(postJson("/auth/v1/recover", {{"email", forgetful.email}}, as(ip)).status, 200);
    send(stored(outboxId("auth_recovery", forgetful.email)));

    // An invitation by a staff admin.
    const auto invitee = newEmail("wire-invite");
    auto invite = postJson("/auth/v1/invite", {{"email", invitee}}, staff());
    ASSERT_EQ(invite.status, 200) << invite.body;
    send(stored(outboxId("auth_invite", invitee)));

    // An email change, to the new address.
    auto mover = createUser("wire-move");
    auto moverSession = signIn(mover, ip);
    const auto movedTo = newEmail("wire-moved");
    ASSERT_EQ(putJson("/auth/v1/user", {{"email", movedTo}}, moverSession.headers()).status, 200);
    const auto changeMail = stored(outboxId("auth_email_change", movedTo));
    send(changeMail);

    // The security notices: the email change confirmed (to the old address), a password change,
    // an authenticator added and removed, and a staff reset of two-factor.
    {
        std::smatch link;
        ASSERT_TRUE(std::regex_search(changeMail.text, link, std::regex(R"(token=([A-Za-z0-9_-]+))"))) << changeMail.text;
        ASSERT_EQ(postJson("/auth/v1/verify", {{"type", "email_change"}, {"token", link[1].str()}}, as(ip)).status, 200);
        send(stored(outboxId("email_changed", mover.email)));

        auto changer = createUser("wire-password");
        auto changerSession = signIn(changer, ip);
        ASSERT_EQ(putJson("/auth/v1/user", {{"password", kStrongPassword}, {"current_password", changer.password}},
                          changerSession.headers()).status,
                  200);
        send(stored(outboxId("password_changed", changer.email)));

        auto careful = createUser("wire-factor");
        auto carefulSession = signIn(careful, ip);
        auto factor = enrolVerifiedFactor(carefulSession);
        send(stored(outboxId("factor_added", careful.email)));
        ASSERT_EQ(del("/auth/v1/factors/" + factor.id, carefulSession.headers(), {{"code", nextCode(factor)}}).status, 200);
        send(stored(outboxId("factor_removed", careful.email)));

        auto locked = createUser("wire-reset");
        auto lockedSession = signIn(locked, ip);
        enrolVerifiedFactor(lockedSession);
        ASSERT_EQ(del("/api/v1/admin/customers/" + locked.id + "/factors", staff(), {{"reason", "Lost phone"}}).status, 200);
        send(stored(outboxId("two_factor_reset_by_staff", locked.email)));

        // The account's limit of wrong two-factor codes, reached over two challenges.
        auto guessed = createUser("wire-guessed");
        auto guessedSession = signIn(guessed, ip);
        auto guessedFactor = enrolVerifiedFactor(guessedSession);
        std::string challengeId;
        for (int i = 0; i < 10; ++i) {
            if (i % 5 == 0) challengeId = challenge(guessedSession, guessedFactor.id);
            ASSERT_EQ(verifyRequest(guessedSession, guessedFactor.id, challengeId, wrongCode(guessedFactor.secret)).status, 422);
        }
        send(stored(outboxId("mfa_wrong_codes", guessed.email)));
    }

    // An enterprise account for a new administrator, for a company with a non-ASCII name.
    const auto enterpriseAdmin = newEmail("wire-enterprise");
    auto account = postJson("/api/v1/admin/enterprise-accounts",
                            {{"company_name", unique("Tāmaki Makaurau Wiring — ✓")},
                             {"billing_email", "accounts@example.nz"},
                             {"admin_email", enterpriseAdmin}},
                            staff());
    ASSERT_EQ(account.status, 201) << account.body;
    send(stored(outboxId("enterprise_invite", enterpriseAdmin)));

    // A paid order (local provider).
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    auto buyer = newBuyer("wire-buyer");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(checkout.status, 200) << checkout.body;
    ASSERT_EQ(pressButton(checkout.json()["url"], "pay").status, 303);
    const auto buyerEmail = textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0);
    send(stored(outboxId("order_confirmation", buyerEmail)));

    // A refund of part of a paid hardware order.
    auto hardware = createHardware(3, 4500);
    auto hardwareCheckout = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 1}});
    ASSERT_EQ(hardwareCheckout.status, 200) << hardwareCheckout.body;
    ASSERT_EQ(pressButton(hardwareCheckout.json()["url"], "pay").status, 303);
    const auto hardwareOrder =
        textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {hardwareCheckout.json()["checkoutId"]}).at(0);
    auto refunded = postJson("/api/v1/admin/orders/" + hardwareOrder + "/refunds", {{"amount", 1250}, {"reason", "Kōrero ✓"}}, staff());
    ASSERT_EQ(refunded.status, 200) << refunded.body;
    send(stored(outboxId("refund", buyerEmail)));
    // The rest of that order cancelled: the remainder refunded, the customer told why.
    auto cancelled = postJson("/api/v1/admin/orders/" + hardwareOrder + "/cancel", {{"reason", "Kōrero: out of stock ✓"}, {"restock", true}},
                              staff());
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    send(stored(outboxId("order_cancelled", buyerEmail)));

    // A hardware order shipped with tracking, to a non-ASCII name and address.
    auto cable = createHardware(2, 4900);
    auto shipper = newBuyer("wire-ship");
    auto cableCheckout = startCheckout(shipper, {{"productSlug", cable.slug}});
    ASSERT_EQ(cableCheckout.status, 200) << cableCheckout.body;
    ASSERT_EQ(payWith(cableCheckout.json()["url"], "name=H%C4%93mi+P%C5%8Dtae&line1=1+M%C4%81ori+Hill+Road&city=%C5%8Ctautahi"
                                                      "&postal_code=8011&country=NZ&phone=%2B64+3+555+0199")
                  .status,
              303);
    const auto shippedOrder = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?",
                                         {std::string(cableCheckout.json()["checkoutId"])}).at(0);
    ASSERT_EQ(patchJson("/api/v1/admin/orders/" + shippedOrder,
                        {{"status", "shipped"}, {"carrier", "Aramex — Ōtautahi"}, {"tracking_number", "LY123456789NZ"}}, staff())
                  .status,
              200);
    send(stored(outboxId("order_shipped", textColumn("SELECT email FROM users WHERE id = ?", {shipper.userId}).at(0))));

    // A Stripe renewal (invoice.paid, billing_reason subscription_cycle) to a server taking Stripe's
    // webhooks on the same database: the renewal receipt with its tax invoice and GST content.
    {
        const std::string secret = "whsec_mail_wire_0123456789";
        const int stripe = serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                                       {"STRIPE_SECRET_KEY", "sk_test_unused"},
                                       {"STRIPE_WEBHOOK_SECRET", secret}});
        const std::int64_t now = Poco::Timestamp().epochTime();
        auto deliver = [&](const std::string& type, const nlohmann::json& object) {
            return deliverStripeEvent(stripe, secret, stripeEvent(type, object, unique("evt_wire")));
        };
        const std::string sub = unique("sub_wire");
        ASSERT_EQ(deliver("customer.subscription.created",
                          {{"id", sub},
                           {"object", "subscription"},
                           {"customer", "cus_wire"},
                           {"status", "active"},
                           {"metadata", {{"user_id", buyer.userId}, {"product_id", product.id}}},
                           {"items", {{"data", nlohmann::json::array({{{"current_period_end", now + 86400}}})}}}})
                      .status,
                  200);
        ASSERT_EQ(deliver("invoice.paid",
                          {{"id", unique("in_wire")},
                           {"object", "invoice"},
                           {"status", "paid"},
                           {"billing_reason", "subscription_cycle"},
                           {"customer", "cus_wire"},
                           {"customer_email", buyerEmail},
                           {"customer_name", "Mere Kōtuku"},
                           {"amount_due", 900},
                           {"amount_paid", 900},
                           {"currency", "nzd"},
                           {"parent",
                            {{"type", "subscription_details"},
                             {"subscription_details", {{"subscription", sub}, {"metadata", nlohmann::json::object()}}}}},
                           {"lines",
                            {{"object", "list"},
                             {"data", nlohmann::json::array({{{"id", unique("il_wire")},
                                                              {"object", "line_item"},
                                                              {"amount", 900},
                                                              {"currency", "nzd"},
                                                              {"description", "1 × Kōrero Monthly"},
                                                              {"quantity", 1},
                                                              {"period", {{"start", now}, {"end", now + 30 * 86400}}}}})}}}})
                      .status,
                  200);
        send(stored(outboxId("renewal_receipt", buyerEmail)));
    }

    // A Contact Sales enquiry: non-ASCII name and company (in the subject), and a message with the
    // lines SMTP and mbox care about: a lone ".", a leading ".", "From ", "=", a very long line.
    const auto enquirer = unique("wire-contact") + "@example.co.nz";
    const std::string message = "Kia ora,\n.\n.hidden line\nFrom the depot: 40 cabinets = 12 licences? <b>Soon</b> & <script>x</script>\n" +
                                std::string(1200, 'w') + "\nNgā mihi ✓\n";
    auto contact = postJson("/api/v1/contact",
                            {{"name", "Aroha Ōtautahi"}, {"email", enquirer}, {"company", "Waka Traffic — Te Waipounamu"},
                             {"phone", "021 555 0101"}, {"message", message}},
                            {{"X-Forwarded-For", newClientIp()}});
    ASSERT_EQ(contact.status, 201) << contact.body;
    send(stored(outboxId("contact", env().server->config().mail.salesAddress, enquirer)));

    // The subscription lifecycle's mails, as the events, the reminder job and the actions compose
    // them (server/tests/api/billing_subscriptions_api_test.cpp makes each through its real flow).
    {
        namespace b = storefront::billing;
        const std::string to = newEmail("wire-subscriber");
        const std::int64_t day = Poco::Timestamp().epochTime() + 14 * 86400;
        const std::string url = kPublicUrl;
        send(b::paymentFailedMail(to, "Kōrero Pro", 1500, "NZD", day, url));
        send(b::paymentReminderMail(to, "Kōrero Pro", day, url));
        send(b::trialEndingMail(to, "Kōrero Pro", day, 1500, "NZD", url));
        send(b::cancellationMail(to, "Kōrero Pro", true, day, url));
        send(b::resumedMail(to, "Kōrero Pro", day, url));
        send(b::planChangedMail(to, "Kōrero Pro", "Yearly", 14000, 0, "NZD", day, 15000, url));
    }

    // The WireWrite inactivity warning, as the job composes it (the job itself warns every idle
    // worker in the shared database: server/tests/api/companion_job_api_test.cpp runs it).
    send(storefront::companion::inactivityWarning(newEmail("wire-idle"), std::string("Hēmi Pōtae"), 75, 90,
                                                  "2031-04-01T00:00:00Z"));

    // Every kind is covered: the one list of kinds (mail/kinds.h), which holds every kind the
    // sources write.
    std::set<std::string> covered, listed;
    for (const auto& [m, file] : sent) covered.insert(m.kind);
    for (const auto& t : mail::mailKinds()) listed.insert(t.kind);
    EXPECT_EQ(covered, listed);
    EXPECT_EQ(kindsInTheSources(), listed);

    // The strict check, one Python run for all.
    const auto sender = mail::parseMailbox(from);
    nlohmann::json expectations = nlohmann::json::array();
    for (const auto& [m, file] : sent)
        expectations.push_back({{"kind", m.kind},
                                {"file", file.string()},
                                {"from_name", sender.displayName},
                                {"from_address", sender.address},
                                {"to", m.to},
                                {"reply_to", m.replyTo},
                                {"subject", m.subject},
                                {"text", m.text},
                                {"heading", mail::templateOf(m.kind, m.subject).heading},
                                {"legal_name", env().server->config().mail.brand.legalName},
                                {"address", env().server->config().mail.brand.address}});
    const auto expectationsFile = sink.folder() / "expectations.json";
    std::ofstream(expectationsFile) << expectations.dump(1);
    auto checked = runPython({kSink, "check", expectationsFile.string()});
    EXPECT_EQ(checked.exitCode, 0) << checked.out;
    auto report = nlohmann::json::parse(checked.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << checked.out;
    for (const auto& [m, file] : sent) {
        ASSERT_TRUE(report.contains(m.kind)) << m.kind << "\n" << checked.out;
        EXPECT_TRUE(report[m.kind].empty()) << m.kind << ": " << report[m.kind].dump(1);
    }
    std::cout << "mail on the wire, checked strictly: " << sent.size() << " kinds (";
    for (const auto& kind : covered) std::cout << kind << (kind == *covered.rbegin() ? "" : ", ");
    std::cout << ")\n";
}

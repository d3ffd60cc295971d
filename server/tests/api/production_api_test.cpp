// Production mode (STOREFRONT_ENV, docs/configuration.md "Production mode"): a production server
// has none of the local test provider's pages, and a server with settings unfit for production
// does not start, naming every one of them; the shell commands still run.
#include "api/billing_support.h"

#include <Poco/Util/Application.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace testing_support;

namespace {

// Complete for production on top of the harness settings (https public URL, SMTP to the fake
// relay, admin two-factor required and no demo data are the harness defaults already). Stripe
// itself is never called here.
const std::map<std::string, std::string> kProduction = {
    {"STOREFRONT_ENV", "production"},
    {"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
    {"STRIPE_SECRET_KEY", "sk_live_production_mode"},
    {"STRIPE_WEBHOOK_SECRET", "whsec_production_mode"},
    {"STRIPE_API_BASE", "https://127.0.0.1:9"},
    {"STOREFRONT_COMPANY_LEGAL_NAME", "Signalcraft Limited"},
    {"STOREFRONT_GST_NUMBER", "49-091-850"},
};

// Everything unfit at once.
const std::map<std::string, std::string> kUnfit = {
    {"STOREFRONT_ENV", "production"},
    {"STOREFRONT_PAYMENT_PROVIDER", "local"},
    {"STOREFRONT_MAIL_TRANSPORT", "outbox"},
    {"STOREFRONT_PUBLIC_URL", "http://shop.signalcraft.test"},
    {"STOREFRONT_DEMO_DATA", "true"},
    {"STOREFRONT_AUTH_ADMIN_MFA_REQUIRED", "false"},
    {"STOREFRONT_COMPANY_LEGAL_NAME", "Signalcraft Limited"},
    {"STOREFRONT_GST_NUMBER", "49-091-850"},
};

const std::vector<std::string> kUnfitSettings = {"STOREFRONT_PAYMENT_PROVIDER is local", "STOREFRONT_MAIL_TRANSPORT is outbox",
                                                 "STOREFRONT_PUBLIC_URL is http://shop.signalcraft.test",
                                                 "STOREFRONT_DEMO_DATA is true", "STOREFRONT_AUTH_ADMIN_MFA_REQUIRED is false"};

std::string tempPath(const std::string& prefix) { return ::testing::TempDir() + "/" + prefix + storefront::db::newId(); }

} // namespace

TEST(ProductionServer, TheLocalProvidersPagesAre404EvenForARealTestCheckout) {
    // A test checkout and a test billing portal made on the development server, on the same database.
    std::string planId;
    auto product = createSubscriptionProduct(planId, 700);
    auto buyer = newBuyer("prod-mode");
    auto first = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(first.status, 200) << first.body;
    ASSERT_EQ(pressButton(first.json()["url"], "pay").status, 303);
    auto portal = http(env().port, "POST", "/functions/v1/create-portal-session", "", buyer.headers());
    ASSERT_EQ(portal.status, 200) << portal.body;
    const std::string portalPath = pathOf(portal.json()["url"]);
    auto subscription = textColumn("SELECT provider_subscription_id FROM subscriptions WHERE user_id = ?", {buyer.userId});
    ASSERT_EQ(subscription.size(), 1u);
    auto open = startCheckout(buyer, {{"productSlug", "hhtraff"}, {"priceId", kMonthlyPlanId}});
    ASSERT_EQ(open.status, 200) << open.body;
    const std::string checkoutPath = pathOf(open.json()["url"]), checkoutId = open.json()["checkoutId"];
    ASSERT_EQ(get(checkoutPath).status, 200); // the development server shows it

    const int production = serverWith(kProduction);
    EXPECT_EQ(http(production, "GET", "/healthz").status, 200);
    const std::vector<std::string> paths = {"/pay/test/assets/style.css",
                                            checkoutPath,
                                            checkoutPath + "/pay",
                                            checkoutPath + "/decline",
                                            checkoutPath + "/cancel",
                                            portalPath,
                                            portalPath + "/cancel/" + subscription[0],
                                            "/pay/test/cs_local_made_up/pay"};
    for (const auto& path : paths)
        for (const char* method : {"GET", "POST", "HEAD"}) {
            auto r = http(production, method, path, "", {{"Content-Type", "application/x-www-form-urlencoded"}});
            EXPECT_EQ(r.status, 404) << method << " " << path << ": " << r.body;
        }
    // Nothing happened to the checkout or the subscription.
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "pending");
    EXPECT_EQ(checkoutStatus(checkoutId), "open");
    EXPECT_EQ(textColumn("SELECT status FROM subscriptions WHERE user_id = ?", {buyer.userId}),
              std::vector<std::string>{"active"});
    // It is a Stripe server: the webhook is there (and refuses an unsigned event).
    EXPECT_EQ(http(production, "POST", "/webhooks/stripe", "{}", {{"Content-Type", "application/json"}}).status, 400);
}

TEST(ProductionServer, AServerWithUnfitSettingsDoesNotStartAndNamesThemAll) {
    try {
        serverWith(kUnfit);
        FAIL() << "a production server started with the local provider, the outbox, http, demo data and no admin 2FA";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("5 settings are not fit for production"), std::string::npos) << message;
        for (const auto& setting : kUnfitSettings) EXPECT_NE(message.find(setting), std::string::npos) << message;
    }
    // In development the local provider, plain http and admins without two-factor start (as `make run` does).
    auto development = kUnfit;
    development["STOREFRONT_ENV"] = "development";
    // Not these two: demo rows are another test's business, and an outbox server on the shared
    // database would take other tests' mail away from the fake relay.
    development.erase("STOREFRONT_DEMO_DATA");
    development.erase("STOREFRONT_MAIL_TRANSPORT");
    EXPECT_EQ(http(serverWith(development), "GET", "/healthz").status, 200);
}

TEST(ProductionServer, TheExecutableRefusesToStartPrintingEveryProblem) {
    // A data folder that cannot be made: a server that got past the check would fail to start
    // (non-zero too, but without these messages) rather than run on.
    const std::string blocker = tempPath("prod-blocker-");
    std::ofstream(blocker) << "not a folder";
    auto vars = kUnfit;
    vars["STOREFRONT_DATA_DIR"] = blocker + "/data";
    vars["STOREFRONT_PORT"] = "0";
    auto run = runStorefront({}, vars);
    EXPECT_EQ(run.exitCode, Poco::Util::Application::EXIT_CONFIG) << run.err;
    EXPECT_NE(run.err.find("storefront: configuration error: STOREFRONT_ENV is production (the default) and 5 settings"),
              std::string::npos)
        << run.err;
    for (const auto& setting : kUnfitSettings) EXPECT_NE(run.err.find("  - " + setting), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("set it to stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET"), std::string::npos) << run.err;

    // With no settings at all (the production default) it says the five that have no safe default
    // (provider, mail, public URL, the company's legal name and GST number).
    vars = {{"STOREFRONT_DATA_DIR", blocker + "/data"}, {"STOREFRONT_ENV", "production"}};
    run = runStorefront({}, vars);
    EXPECT_EQ(run.exitCode, Poco::Util::Application::EXIT_CONFIG) << run.err;
    EXPECT_NE(run.err.find("5 settings are not fit"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("  - STOREFRONT_GST_NUMBER is not set"), std::string::npos) << run.err;
    std::filesystem::remove(blocker);
}

TEST(ProductionServer, ShellCommandsRunBeforePaymentsAndMailAreSetUp) {
    // The operator's first steps on a new host: migrate, then the first admin, with production's
    // defaults (local provider, outbox, http) not yet changed.
    const std::string dir = tempPath("prod-commands-");
    const std::map<std::string, std::string> vars = {
        {"STOREFRONT_ENV", "production"},
        {"STOREFRONT_DATA_DIR", dir},
        {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
        {"STOREFRONT_TOTP_KEY", "production-mode-test-totp-key-0123456789"},
    };
    auto migrate = runStorefront({"migrate"}, vars);
    EXPECT_EQ(migrate.exitCode, 0) << migrate.err;
    auto admin = runStorefront({"users", "create", "--email", "owner@example.nz", "--admin"}, vars, "a long first passphrase");
    EXPECT_EQ(admin.exitCode, 0) << admin.err;
    EXPECT_NE(admin.out.find("created admin owner@example.nz"), std::string::npos) << admin.out;
    auto keys = runStorefront({"keys", "list"}, vars);
    EXPECT_EQ(keys.exitCode, 0) << keys.err;
    std::filesystem::remove_all(dir);
}

// Issue 32: a Stripe test-mode key, a plain-http Stripe API, unencrypted SMTP to another machine
// and sign-up without confirmation are refused together; with STOREFRONT_ALLOW_TEST_PAYMENTS the
// test key is accepted, every page says so (the web app's TEST PAYMENTS ribbon) and every mail's
// subject starts with TEST PAYMENTS.
TEST(ProductionServer, TestPaymentsUnencryptedMailAndNoConfirmationAreRefusedTogether) {
    auto vars = kProduction;
    vars["STRIPE_SECRET_KEY"] = "rk_test_production_mode";
    vars["STRIPE_API_BASE"] = "http://127.0.0.1:9";
    vars["SMTP_HOST"] = "192.0.2.25"; // TEST-NET-1: never reached, the check refuses first
    vars["STOREFRONT_AUTH_CONFIRM_EMAIL"] = "false";
    try {
        serverWith(vars);
        FAIL() << "a production server started with a test key, http Stripe, plain SMTP and no email confirmation";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("4 settings are not fit for production"), std::string::npos) << message;
        for (const char* setting : {"STRIPE_SECRET_KEY is a test-mode key", "STRIPE_API_BASE is http://127.0.0.1:9",
                                    "SMTP_SECURITY is none with SMTP_HOST 192.0.2.25", "STOREFRONT_AUTH_CONFIRM_EMAIL is false"})
            EXPECT_NE(message.find(setting), std::string::npos) << setting << "\n" << message;
    }
}

// Issue 48: every unsafe setting at once, through the executable's own start-up (the settings
// are read, then checked): a plain-http Stripe API on another machine is one problem among the
// others, not a stop before them.
TEST(ProductionServer, EveryUnsafeSettingAtOnceIsListedByTheExecutable) {
    const std::string blocker = tempPath("prod-unsafe-");
    std::ofstream(blocker) << "not a folder";
    auto vars = kProduction;
    vars["STOREFRONT_DATA_DIR"] = blocker + "/data";
    vars["STOREFRONT_PORT"] = "0";
    vars["STRIPE_SECRET_KEY"] = "sk_test_production_mode";
    vars["STRIPE_API_BASE"] = "http://api.stripe.com";
    vars["STOREFRONT_MAIL_TRANSPORT"] = "smtp";
    vars["SMTP_HOST"] = "192.0.2.25";
    vars["SMTP_SECURITY"] = "none";
    vars["STOREFRONT_AUTH_CONFIRM_EMAIL"] = "false";
    vars["STOREFRONT_DEMO_DATA"] = "true";
    vars["STOREFRONT_PUBLIC_URL"] = "http://shop.signalcraft.test";
    auto run = runStorefront({}, vars);
    EXPECT_EQ(run.exitCode, Poco::Util::Application::EXIT_CONFIG) << run.err;
    EXPECT_NE(run.err.find("STOREFRONT_ENV is production (the default) and 6 settings are not fit for production"),
              std::string::npos)
        << run.err;
    for (const char* setting : {"STRIPE_SECRET_KEY is a test-mode key", "STRIPE_API_BASE is http://api.stripe.com",
                                "SMTP_SECURITY is none with SMTP_HOST 192.0.2.25", "STOREFRONT_AUTH_CONFIRM_EMAIL is false",
                                "STOREFRONT_DEMO_DATA is true", "STOREFRONT_PUBLIC_URL is http://shop.signalcraft.test"})
        EXPECT_NE(run.err.find(std::string("  - ") + setting), std::string::npos) << setting << "\n" << run.err;

    // Malformed values are named all at once too, before anything is checked for production.
    vars["STOREFRONT_PORT"] = "eighty";
    vars["STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT"] = "0";
    vars["STRIPE_API_BASE"] = "api.stripe.com";
    run = runStorefront({}, vars);
    EXPECT_EQ(run.exitCode, Poco::Util::Application::EXIT_CONFIG) << run.err;
    EXPECT_NE(run.err.find("3 settings are wrong:"), std::string::npos) << run.err;
    for (const char* setting : {"  - STOREFRONT_PORT must be", "  - STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT must be",
                                "  - STRIPE_API_BASE must be an http(s) URL"})
        EXPECT_NE(run.err.find(setting), std::string::npos) << setting << "\n" << run.err;
    std::filesystem::remove(blocker);
}

TEST(ProductionServer, AllowedTestPaymentsMarkEveryPageAndEveryMail) {
    auto vars = kProduction;
    vars["STRIPE_SECRET_KEY"] = "sk_test_production_mode";
    vars["STOREFRONT_ALLOW_TEST_PAYMENTS"] = "true";
    const int port = serverWith(vars);
    // Every page, the ones the build wrote whole (/terms) too, has the ribbon in its HTML, before the app's root.
    for (const std::string path : {"/", "/sign-in", "/admin/orders", "/product/no-such-product", "/terms"}) {
        const auto page = http(port, "GET", path);
        const auto ribbon = page.body.find("<div role=\"note\" aria-label=\"Test payments\"");
        EXPECT_NE(ribbon, std::string::npos) << path << ": " << page.body.substr(0, 400);
        EXPECT_LT(ribbon, page.body.find("<div id=\"root\">")) << path;
        EXPECT_NE(page.body.find("TEST PAYMENTS: orders on this site are test orders"), std::string::npos) << path;
    }
    // The ordinary server's pages do not.
    for (const std::string path : {"/", "/terms"}) EXPECT_EQ(get(path).body.find("TEST PAYMENTS"), std::string::npos) << path;
    // A Contact Sales enquiry's mail to sales.
    const auto email = newEmail("test-payments");
    const auto sent = sendJson(port, "POST", "/api/v1/contact",
                               {{"name", "Aroha Test"}, {"email", email}, {"message", "Is this real?"}},
                               {{"X-Forwarded-For", newClientIp()}});
    ASSERT_EQ(sent.status, 201) << sent.body;
    const auto subjects = textColumn("SELECT m.subject FROM mail_outbox m JOIN contact_submissions c ON c.id = m.contact_submission_id "
                                     "WHERE c.email = ?",
                                     {email});
    ASSERT_EQ(subjects.size(), 1u);
    EXPECT_TRUE(subjects[0].starts_with("TEST PAYMENTS: Contact Sales: Aroha Test")) << subjects[0];
}

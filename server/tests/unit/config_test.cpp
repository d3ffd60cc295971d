#include "app/config.h"
#include "app/production.h"

#include <Poco/AutoPtr.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

using storefront::app::Config;
using storefront::app::loadConfig;

namespace {

struct Fixture {
    std::map<std::string, std::string> env;
    Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;

    Config load() {
        return loadConfig(*props, [this](const std::string& k) -> std::optional<std::string> {
            auto it = env.find(k);
            if (it == env.end()) return std::nullopt;
            return it->second;
        }, "/srv/web");
    }
};

} // namespace

TEST(Config, DefaultsServeLocallyOnSqliteInTheDataFolder) {
    Fixture f;
    auto c = f.load();
    EXPECT_EQ(c.port, 8080);
    EXPECT_EQ(c.bindAddress, "127.0.0.1");
    EXPECT_EQ(c.publicUrl, "http://localhost:8080");
    EXPECT_EQ(c.database, "data/storefront.db");
    EXPECT_EQ(c.webDir, "/srv/web");
    EXPECT_FALSE(c.postgres());
    EXPECT_FALSE(c.httpsPublicUrl());
    EXPECT_EQ(c.mail.transport, "outbox");
    EXPECT_TRUE(c.seedCatalogue);
}

TEST(Config, EnvironmentWinsOverThePropertiesFile) {
    Fixture f;
    f.props->setString("storefront.port", "9000");
    f.props->setString("storefront.dataDir", "/var/lib/storefront");
    EXPECT_EQ(f.load().port, 9000);
    EXPECT_EQ(f.load().database, "/var/lib/storefront/storefront.db");
    f.env["STOREFRONT_PORT"] = "9100";
    f.env["STOREFRONT_DATABASE"] = "postgresql://app@db.internal:5432/storefront";
    auto c = f.load();
    EXPECT_EQ(c.port, 9100);
    EXPECT_TRUE(c.postgres());
}

TEST(Config, PublicUrlLosesItsTrailingSlashAndHttpsTurnsOnHsts) {
    Fixture f;
    f.env["STOREFRONT_PUBLIC_URL"] = "https://shop.signalcraft.co.nz/";
    auto c = f.load();
    EXPECT_EQ(c.publicUrl, "https://shop.signalcraft.co.nz");
    EXPECT_TRUE(c.httpsPublicUrl());
}

TEST(Config, RejectsUnusableValuesNamingTheSetting) {
    Fixture f;
    f.env["STOREFRONT_PORT"] = "eighty";
    try {
        f.load();
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_PORT"), std::string::npos);
    }
    f.env["STOREFRONT_PORT"] = "70000";
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env.erase("STOREFRONT_PORT");
    f.env["STOREFRONT_PUBLIC_URL"] = "javascript:alert(1)";
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env["STOREFRONT_PUBLIC_URL"] = "https://shop.example.nz?x=1";
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env.erase("STOREFRONT_PUBLIC_URL");
    f.env["STOREFRONT_MAIL_TRANSPORT"] = "pigeon";
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env["STOREFRONT_MAIL_TRANSPORT"] = "smtp"; // without SMTP_HOST
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env["SMTP_HOST"] = "smtp.example.nz";
    EXPECT_EQ(f.load().mail.transport, "smtp");
    f.env["STOREFRONT_SEED"] = "maybe";
    EXPECT_THROW(f.load(), std::invalid_argument);
}

TEST(Config, EnumeratedSettingsNameTheirChoices) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"STOREFRONT_MAIL_TRANSPORT", "STOREFRONT_MAIL_TRANSPORT must be outbox or smtp, got 'pigeon'"},
        {"SMTP_SECURITY", "SMTP_SECURITY must be starttls, tls or none, got 'pigeon'"},
        {"STOREFRONT_PAYMENT_PROVIDER", "STOREFRONT_PAYMENT_PROVIDER must be local or stripe, got 'pigeon'"},
        {"STOREFRONT_ENV", "STOREFRONT_ENV must be production or development, got 'pigeon'"},
    };
    for (const auto& [name, message] : cases) {
        Fixture f;
        f.env[name] = "Pigeon";
        try {
            f.load();
            ADD_FAILURE() << name << " accepted pigeon";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()), message);
        }
    }
    Fixture f;
    f.env["SMTP_SECURITY"] = " TLS ";
    f.env["STOREFRONT_PAYMENT_PROVIDER"] = "Local";
    auto c = f.load();
    EXPECT_EQ(c.mail.smtpSecurity, "tls");
    EXPECT_EQ(c.payments.provider, "local");
}

TEST(Config, TrustedProxiesAreACommaSeparatedList) {
    Fixture f;
    f.env["STOREFRONT_TRUSTED_PROXIES"] = " 127.0.0.1, ::1 ,,10.0.0.5";
    auto c = f.load();
    ASSERT_EQ(c.trustedProxies.size(), 3u);
    EXPECT_EQ(c.trustedProxies[0], "127.0.0.1");
    EXPECT_EQ(c.trustedProxies[1], "::1");
    EXPECT_EQ(c.trustedProxies[2], "10.0.0.5");
}

TEST(Config, AuthDefaultsAreSafeForProduction) {
    Fixture f;
    const auto a = f.load().auth;
    EXPECT_EQ(a.siteName, "Signalcraft");
    EXPECT_TRUE(a.confirmEmail);
    EXPECT_TRUE(a.adminMfaRequired);
    EXPECT_TRUE(a.signupEnabled);
    EXPECT_EQ(a.jwtExpirySeconds, 3600);
    EXPECT_EQ(a.sessionTimeboxSeconds, 30 * 86400);
    EXPECT_EQ(a.sessionInactivitySeconds, 7 * 86400);
    EXPECT_EQ(a.passwordMinLength, 6);
    EXPECT_EQ(a.argon2Ops, 2);
    EXPECT_EQ(a.argon2MemoryKib, 65536);
    EXPECT_EQ(a.hashConcurrency, 0);
    EXPECT_EQ(a.hashQueue, 0);
    EXPECT_TRUE(a.hashIdlePriority);
    EXPECT_EQ(a.signinLimitPerAccount, 10);
    EXPECT_EQ(a.signinLimitPerAddress, 60);
    EXPECT_EQ(a.signinWindowSeconds, 300);
    EXPECT_EQ(a.signupLimitPerAddress, 30);
    EXPECT_EQ(a.emailLimitPerAddress, 5);
    EXPECT_EQ(a.emailWindowSeconds, 3600);
    EXPECT_EQ(a.linkExpirySeconds, 86400);
    EXPECT_EQ(a.mfaMaxAttempts, 5);
}

TEST(Config, AuthSettingsComeFromTheEnvironmentOrTheFile) {
    Fixture f;
    f.props->setString("storefront.auth.confirmEmail", "false");
    f.props->setString("storefront.auth.passwordMinLength", "10");
    f.env["STOREFRONT_SITE_NAME"] = "Signalcraft Test";
    f.env["STOREFRONT_AUTH_ADMIN_MFA_REQUIRED"] = "off";
    f.env["STOREFRONT_AUTH_SIGNUP_ENABLED"] = "no";
    f.env["STOREFRONT_AUTH_JWT_EXPIRY_SECONDS"] = "600";
    f.env["STOREFRONT_AUTH_SESSION_TIMEBOX_SECONDS"] = "0";
    f.env["STOREFRONT_AUTH_SESSION_INACTIVITY_SECONDS"] = "0";
    f.env["STOREFRONT_AUTH_ARGON2_OPS"] = "1";
    f.env["STOREFRONT_AUTH_ARGON2_MEMORY_KIB"] = "8192";
    f.env["STOREFRONT_AUTH_HASH_CONCURRENCY"] = "3";
    f.env["STOREFRONT_AUTH_HASH_QUEUE"] = "7";
    f.env["STOREFRONT_AUTH_HASH_IDLE_PRIORITY"] = "false";
    f.env["STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT"] = "4";
    f.env["STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS"] = "40";
    f.env["STOREFRONT_AUTH_SIGNIN_WINDOW_SECONDS"] = "120";
    f.env["STOREFRONT_AUTH_SIGNUP_LIMIT_PER_ADDRESS"] = "9";
    f.env["STOREFRONT_AUTH_EMAIL_LIMIT"] = "2";
    f.env["STOREFRONT_AUTH_EMAIL_WINDOW_SECONDS"] = "60";
    f.env["STOREFRONT_AUTH_LINK_EXPIRY_SECONDS"] = "3600";
    f.env["STOREFRONT_AUTH_MFA_MAX_ATTEMPTS"] = "3";
    const auto a = f.load().auth;
    EXPECT_FALSE(a.confirmEmail);
    EXPECT_EQ(a.passwordMinLength, 10);
    EXPECT_EQ(a.siteName, "Signalcraft Test");
    EXPECT_FALSE(a.adminMfaRequired);
    EXPECT_FALSE(a.signupEnabled);
    EXPECT_EQ(a.jwtExpirySeconds, 600);
    EXPECT_EQ(a.sessionTimeboxSeconds, 0);
    EXPECT_EQ(a.sessionInactivitySeconds, 0);
    EXPECT_EQ(a.argon2Ops, 1);
    EXPECT_EQ(a.argon2MemoryKib, 8192);
    EXPECT_EQ(a.hashConcurrency, 3);
    EXPECT_EQ(a.hashQueue, 7);
    EXPECT_FALSE(a.hashIdlePriority);
    EXPECT_EQ(a.signinLimitPerAccount, 4);
    EXPECT_EQ(a.signinLimitPerAddress, 40);
    EXPECT_EQ(a.signinWindowSeconds, 120);
    EXPECT_EQ(a.signupLimitPerAddress, 9);
    EXPECT_EQ(a.emailLimitPerAddress, 2);
    EXPECT_EQ(a.emailWindowSeconds, 60);
    EXPECT_EQ(a.linkExpirySeconds, 3600);
    EXPECT_EQ(a.mfaMaxAttempts, 3);
    f.env["STOREFRONT_AUTH_CONFIRM_EMAIL"] = "TRUE"; // the environment wins over the file
    EXPECT_TRUE(f.load().auth.confirmEmail);
}

TEST(Config, RejectsUnusableAuthValuesNamingTheSetting) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"STOREFRONT_AUTH_CONFIRM_EMAIL", "maybe"},
        {"STOREFRONT_AUTH_ADMIN_MFA_REQUIRED", "2"},
        {"STOREFRONT_AUTH_SIGNUP_ENABLED", "enabled"},
        {"STOREFRONT_AUTH_JWT_EXPIRY_SECONDS", "29"},          // shorter than a refresh round trip
        {"STOREFRONT_AUTH_JWT_EXPIRY_SECONDS", "604801"},      // longer than a week
        {"STOREFRONT_AUTH_JWT_EXPIRY_SECONDS", "1h"},
        {"STOREFRONT_AUTH_SESSION_TIMEBOX_SECONDS", "-1"},
        {"STOREFRONT_AUTH_SESSION_INACTIVITY_SECONDS", "31708801"},
        {"STOREFRONT_AUTH_PASSWORD_MIN_LENGTH", "5"},          // GoTrue's floor is 6
        {"STOREFRONT_AUTH_PASSWORD_MIN_LENGTH", "73"},
        {"STOREFRONT_AUTH_ARGON2_OPS", "0"},                   // below libsodium's minimum
        {"STOREFRONT_AUTH_ARGON2_OPS", "11"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "7"},            // below libsodium's 8 KiB minimum
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "1048577"},
        {"STOREFRONT_AUTH_HASH_CONCURRENCY", "-1"},
        {"STOREFRONT_AUTH_HASH_QUEUE", "many"},
        {"STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT", "0"},     // would lock every account out
        {"STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS", "0"},
        {"STOREFRONT_AUTH_SIGNIN_WINDOW_SECONDS", "0"},
        {"STOREFRONT_AUTH_SIGNUP_LIMIT_PER_ADDRESS", "0"},
        {"STOREFRONT_AUTH_EMAIL_LIMIT", "0"},
        {"STOREFRONT_AUTH_EMAIL_WINDOW_SECONDS", "86401"},
        {"STOREFRONT_AUTH_LINK_EXPIRY_SECONDS", "59"},
        {"STOREFRONT_AUTH_MFA_MAX_ATTEMPTS", "0"},
        {"STOREFRONT_AUTH_MFA_MAX_ATTEMPTS", "101"},
        {"STOREFRONT_AUTH_RECENT_CODE_SECONDS", "-1"},
        {"STOREFRONT_AUTH_RECENT_CODE_SECONDS", "3601"},
        {"STOREFRONT_SUPPORT_EMAIL", "not an address"},
        {"STOREFRONT_MAIL_PRINT", "loudly"},
    };
    for (const auto& [name, value] : bad) {
        Fixture f;
        f.env[name] = value;
        try {
            f.load();
            ADD_FAILURE() << name << "=" << value << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

TEST(Config, PrintingMailIsForDevelopmentAndTheMailFooterIsTheCompanys) {
    Fixture f;
    f.env["STOREFRONT_ENV"] = "development";
    f.env["STOREFRONT_MAIL_PRINT"] = "true";
    f.env["STOREFRONT_COMPANY_LEGAL_NAME"] = "Signalcraft Limited";
    f.env["STOREFRONT_COMPANY_ADDRESS"] = "2 Cashel Street, Christchurch";
    auto c = f.load();
    EXPECT_TRUE(c.mail.print);
    EXPECT_EQ(c.mail.brand.legalName, "Signalcraft Limited");
    EXPECT_EQ(c.mail.brand.address, "2 Cashel Street, Christchurch");
    EXPECT_EQ(c.mail.brand.siteName, c.auth.siteName);
    f.env["STOREFRONT_ENV"] = "production";
    try {
        f.load();
        ADD_FAILURE() << "STOREFRONT_MAIL_PRINT=true was accepted in production";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_MAIL_PRINT"), std::string::npos) << e.what();
    }
}

TEST(Config, MallocSettingsDefaultToGlibcArenasAndATrimAMinute) {
    Fixture f;
    auto c = f.load();
    EXPECT_EQ(c.mallocArenaMax, 0);
    EXPECT_EQ(c.mallocTrimSeconds, 60);
    f.props->setString("storefront.malloc.arenaMax", "2");
    f.env["STOREFRONT_MALLOC_TRIM_SECONDS"] = "0";
    c = f.load();
    EXPECT_EQ(c.mallocArenaMax, 2);
    EXPECT_EQ(c.mallocTrimSeconds, 0);
    f.env["STOREFRONT_MALLOC_ARENA_MAX"] = "-1";
    EXPECT_THROW(f.load(), std::invalid_argument);
    f.env.erase("STOREFRONT_MALLOC_ARENA_MAX");
    f.env["STOREFRONT_MALLOC_TRIM_SECONDS"] = "soon";
    try {
        f.load();
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_MALLOC_TRIM_SECONDS"), std::string::npos);
    }
}

TEST(Config, LogFormatIsTextOrJsonAndTheMetricsTokenLongEnough) {
    Fixture f;
    auto c = f.load();
    EXPECT_EQ(c.logFormat, "text");
    EXPECT_EQ(c.metricsToken, "");
    f.env["STOREFRONT_LOG_FORMAT"] = "JSON";
    f.env["STOREFRONT_METRICS_TOKEN"] = "0123456789abcdef";
    c = f.load();
    EXPECT_EQ(c.logFormat, "json");
    EXPECT_EQ(c.metricsToken, "0123456789abcdef");
    f.env["STOREFRONT_LOG_FORMAT"] = "xml";
    try {
        f.load();
        FAIL() << "xml accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_LOG_FORMAT must be text or json"), std::string::npos) << e.what();
    }
    f.env["STOREFRONT_LOG_FORMAT"] = "text";
    f.env["STOREFRONT_METRICS_TOKEN"] = "short";
    try {
        f.load();
        FAIL() << "a 5-character token accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_METRICS_TOKEN must be at least 16 characters"), std::string::npos) << e.what();
    }
}

// --- Production mode (STOREFRONT_ENV, app/production.h) ---------------------------------------

namespace {

// Everything a production server needs (docs/configuration.md, "A complete production configuration").
Fixture productionFixture() {
    Fixture f;
    f.env = {
        {"STOREFRONT_ENV", "production"},
        {"STOREFRONT_PUBLIC_URL", "https://shop.example.nz"},
        {"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
        {"STRIPE_SECRET_KEY", "sk_live_example"},
        {"STRIPE_WEBHOOK_SECRET", "whsec_example"},
        {"STOREFRONT_MAIL_TRANSPORT", "smtp"},
        {"SMTP_HOST", "smtp.example.nz"},
        {"STOREFRONT_COMPANY_LEGAL_NAME", "Example Software Limited"},
        {"STOREFRONT_GST_NUMBER", "49-091-850"},
    };
    return f;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(ProductionMode, IsTheDefaultAndDevelopmentMustBeAskedFor) {
    Fixture f;
    EXPECT_EQ(f.load().environment, "production");
    EXPECT_TRUE(f.load().production());
    f.props->setString("storefront.env", "development");
    EXPECT_FALSE(f.load().production());
    f.env["STOREFRONT_ENV"] = " Production ";
    EXPECT_TRUE(f.load().production());
    f.env["STOREFRONT_ENV"] = "prod";
    try {
        f.load();
        FAIL() << "accepted prod";
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(mentions(e.what(), "STOREFRONT_ENV")) << e.what();
    }
}

TEST(ProductionMode, TheDefaultsAreNotFitForProduction) {
    Fixture f;
    auto problems = storefront::app::productionProblems(f.load());
    ASSERT_EQ(problems.size(), 5u); // and the company's legal name and GST number (TaxInvoiceSettings)
    EXPECT_TRUE(mentions(problems[0], "STOREFRONT_PAYMENT_PROVIDER is local")) << problems[0];
    EXPECT_TRUE(mentions(problems[1], "STOREFRONT_MAIL_TRANSPORT is outbox")) << problems[1];
    EXPECT_TRUE(mentions(problems[2], "STOREFRONT_PUBLIC_URL is http://localhost:8080")) << problems[2];
}

TEST(ProductionMode, ListsEveryProblemTogetherEachSayingWhatToSet) {
    Fixture f;
    f.env["STOREFRONT_DEMO_DATA"] = "true";
    f.env["STOREFRONT_AUTH_ADMIN_MFA_REQUIRED"] = "false";
    f.env["STOREFRONT_PUBLIC_URL"] = "http://shop.example.nz";
    f.env["STOREFRONT_COMPANY_LEGAL_NAME"] = "Example Software Limited";
    f.env["STOREFRONT_GST_NUMBER"] = "49091850";
    auto problems = storefront::app::productionProblems(f.load());
    ASSERT_EQ(problems.size(), 5u);
    EXPECT_EQ(problems[0], "STOREFRONT_PAYMENT_PROVIDER is local (its TEST MODE pages mark orders paid without taking a "
                           "payment): set it to stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
    EXPECT_TRUE(mentions(problems[1], "set it to smtp with SMTP_HOST")) << problems[1];
    EXPECT_TRUE(mentions(problems[2], "STOREFRONT_PUBLIC_URL is http://shop.example.nz")) << problems[2];
    EXPECT_TRUE(mentions(problems[2], "set it to the https:// address")) << problems[2];
    EXPECT_TRUE(mentions(problems[3], "STOREFRONT_DEMO_DATA is true")) << problems[3];
    EXPECT_TRUE(mentions(problems[3], "set it to false")) << problems[3];
    EXPECT_TRUE(mentions(problems[4], "STOREFRONT_AUTH_ADMIN_MFA_REQUIRED is false")) << problems[4];
    EXPECT_TRUE(mentions(problems[4], "set it to true")) << problems[4];

    const auto text = storefront::app::describeProductionProblems(problems);
    EXPECT_TRUE(text.starts_with("STOREFRONT_ENV is production (the default) and 5 settings are not fit for production:\n"))
        << text;
    for (const auto& problem : problems) EXPECT_TRUE(mentions(text, "\n  - " + problem + "\n")) << problem;
    EXPECT_TRUE(mentions(text, "STOREFRONT_ENV=development")) << text;
    EXPECT_EQ(storefront::app::describeProductionProblems({}), "");
}

TEST(ProductionMode, EachProblemAloneIsFound) {
    const std::vector<std::pair<std::string, std::string>> unfit = {
        {"STOREFRONT_PAYMENT_PROVIDER", "local"},      {"STOREFRONT_MAIL_TRANSPORT", "outbox"},
        {"STOREFRONT_PUBLIC_URL", "http://shop.example.nz"}, {"STOREFRONT_DEMO_DATA", "yes"},
        {"STOREFRONT_AUTH_ADMIN_MFA_REQUIRED", "off"},
    };
    for (const auto& [name, value] : unfit) {
        auto f = productionFixture();
        f.env[name] = value;
        auto problems = storefront::app::productionProblems(f.load());
        ASSERT_EQ(problems.size(), 1u) << name;
        EXPECT_TRUE(problems[0].starts_with(name + " is ")) << problems[0];
    }
}

TEST(ProductionMode, ACompleteProductionConfigurationHasNoProblems) {
    auto f = productionFixture();
    EXPECT_TRUE(storefront::app::productionProblems(f.load()).empty());
    // The same from a properties file (storefront --config=FILE).
    Fixture file;
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"storefront.env", "production"}, {"storefront.publicUrl", "https://shop.example.nz"},
             {"storefront.payments.provider", "stripe"}, {"storefront.stripe.secretKey", "sk_live_example"},
             {"storefront.stripe.webhookSecret", "whsec_example"}, {"storefront.mail.transport", "smtp"},
             {"storefront.smtp.host", "smtp.example.nz"}, {"storefront.company.legalName", "Example Software Limited"},
             {"storefront.company.gstNumber", "136-410-132"}})
        file.props->setString(key, value);
    EXPECT_TRUE(storefront::app::productionProblems(file.load()).empty());
}

TEST(ProductionMode, DevelopmentListsNone) {
    Fixture f;
    f.env["STOREFRONT_ENV"] = "development";
    f.env["STOREFRONT_DEMO_DATA"] = "true";
    f.env["STOREFRONT_AUTH_ADMIN_MFA_REQUIRED"] = "false";
    EXPECT_TRUE(storefront::app::productionProblems(f.load()).empty());
}

TEST(ProductionMode, RefusesToStartWithoutTheCompanysLegalNameAndGstNumber) {
    for (const char* name : {"STOREFRONT_COMPANY_LEGAL_NAME", "STOREFRONT_GST_NUMBER"}) {
        auto f = productionFixture();
        f.env.erase(name);
        auto problems = storefront::app::productionProblems(f.load());
        ASSERT_EQ(problems.size(), 1u) << name;
        EXPECT_TRUE(problems[0].starts_with(std::string(name) + " is not set")) << problems[0];
    }
    // Development has demo values, so a local invoice is complete.
    Fixture dev;
    dev.env["STOREFRONT_ENV"] = "development";
    const auto invoices = dev.load().payments.invoices;
    EXPECT_FALSE(invoices.legalName.empty());
    EXPECT_FALSE(invoices.address.empty());
    EXPECT_EQ(invoices.gstNumber, "49-091-850");
    EXPECT_EQ(invoices.prefix, "INV-");
    EXPECT_EQ(invoices.zeroRatedCurrencies, (std::vector<std::string>{"AUD", "USD"}));
}

TEST(TaxInvoiceSettings, AreCheckedNamingTheSetting) {
    auto f = productionFixture();
    f.env["STOREFRONT_GST_NUMBER"] = " 136410132 ";
    f.env["STOREFRONT_INVOICE_PREFIX"] = "SF/";
    f.env["STOREFRONT_ZERO_RATED_CURRENCIES"] = "aud, gbp";
    auto c = f.load();
    EXPECT_EQ(c.payments.invoices.gstNumber, "136-410-132");
    EXPECT_EQ(c.payments.invoices.prefix, "SF/");
    EXPECT_EQ(c.payments.invoices.zeroRatedCurrencies, (std::vector<std::string>{"AUD", "GBP"}));
    f.env["STOREFRONT_ZERO_RATED_CURRENCIES"] = "none";
    EXPECT_TRUE(f.load().payments.invoices.zeroRatedCurrencies.empty());
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"STOREFRONT_GST_NUMBER", "136410133"},     // wrong check digit
        {"STOREFRONT_GST_NUMBER", "12-345-678X"},   // not digits
        {"STOREFRONT_GST_NUMBER", "9125568"},       // too short
        {"STOREFRONT_INVOICE_PREFIX", "INV 2026 "}, // a space
        {"STOREFRONT_INVOICE_PREFIX", "ABCDEFGHIJKLM"},
        {"STOREFRONT_ZERO_RATED_CURRENCIES", "AUD,US"},
        {"STOREFRONT_ZERO_RATED_CURRENCIES", "NZD"},
    };
    for (const auto& [name, value] : bad) {
        auto g = productionFixture();
        g.env[name] = value;
        try {
            g.load();
            ADD_FAILURE() << name << "=" << value << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_TRUE(mentions(e.what(), name)) << e.what();
        }
    }
}

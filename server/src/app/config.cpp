#include "app/config.h"

#include "billing/books/tax_invoice.h"
#include "billing/orders/shipping.h"

#include "mail/wire.h"

#include <Poco/Net/IPAddress.h>
#include <Poco/NumberParser.h>
#include <Poco/String.h>
#include <Poco/StringTokenizer.h>
#include <Poco/URI.h>
#include <Poco/Util/AbstractConfiguration.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace storefront::app {

namespace {

class Reader {
public:
    Reader(const Poco::Util::AbstractConfiguration& props, const EnvLookup& env) : props_(props), env_(env) {}

    std::string str(const std::string& envName, const std::string& key, const std::string& fallback) const {
        if (auto v = env_(envName); v && !v->empty()) return *v;
        return props_.getString(key, fallback);
    }

    // A wrong setting is noted and reading goes on (with the default in its place), so that one
    // start names every wrong setting at once (throwIfWrong).
    void fail(std::string message) { errors_.push_back(std::move(message)); }

    void throwIfWrong() const {
        if (errors_.empty()) return;
        if (errors_.size() == 1) throw std::invalid_argument(errors_.front());
        std::string text = std::to_string(errors_.size()) + " settings are wrong:";
        for (const auto& e : errors_) text += "\n  - " + e;
        throw std::invalid_argument(text);
    }

    int integer(const std::string& envName, const std::string& key, int fallback, int min, int max) {
        auto text = str(envName, key, std::to_string(fallback));
        int value = 0;
        if (!Poco::NumberParser::tryParse(Poco::trim(text), value) || value < min || value > max) {
            fail(envName + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got '" +
                 text + "'");
            return fallback;
        }
        return value;
    }

    bool boolean(const std::string& envName, const std::string& key, bool fallback) {
        auto text = Poco::toLower(Poco::trim(str(envName, key, fallback ? "true" : "false")));
        if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
        if (text == "false" || text == "0" || text == "no" || text == "off") return false;
        fail(envName + " must be true or false, got '" + text + "'");
        return fallback;
    }

    // One of `options` (compared lowercased): "NAME must be a, b or c, got 'x'" otherwise.
    std::string choice(const std::string& envName, const std::string& key, const std::string& fallback,
                       const std::vector<std::string>& options) {
        auto text = Poco::toLower(Poco::trim(str(envName, key, fallback)));
        for (const auto& option : options)
            if (text == option) return text;
        std::string list;
        for (std::size_t i = 0; i < options.size(); ++i)
            list += (i == 0 ? "" : i + 1 == options.size() ? " or " : ", ") + options[i];
        fail(envName + " must be " + list + ", got '" + text + "'");
        return fallback;
    }

private:
    const Poco::Util::AbstractConfiguration& props_;
    const EnvLookup& env_;
    std::vector<std::string> errors_;
};

std::vector<std::string> splitList(const std::string& text) {
    Poco::StringTokenizer items(text, ",", Poco::StringTokenizer::TOK_TRIM | Poco::StringTokenizer::TOK_IGNORE_EMPTY);
    return {items.begin(), items.end()};
}

} // namespace

bool isLoopbackHost(const std::string& host) {
    std::string bare = host;
    if (bare.size() > 2 && bare.front() == '[' && bare.back() == ']') bare = bare.substr(1, bare.size() - 2);
    if (Poco::icompare(bare, "localhost") == 0) return true;
    Poco::Net::IPAddress address;
    if (!Poco::Net::IPAddress::tryParse(bare, address)) return false;
    if (address.isLoopback()) return true;
    // An IPv4 client on a dual-stack socket: ::ffff:127.0.0.1.
    Poco::Net::IPAddress v4;
    return address.isIPv4Mapped() && Poco::Net::IPAddress::tryParse(bare.substr(bare.rfind(':') + 1), v4) && v4.isLoopback();
}

bool isLoopbackUrl(const std::string& url) {
    try {
        return isLoopbackHost(Poco::URI(url).getHost());
    } catch (const Poco::Exception&) {
        return false;
    }
}

std::optional<std::string> processEnv(const std::string& name) {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
}

Config loadConfig(const Poco::Util::AbstractConfiguration& properties, const EnvLookup& env,
                  const std::string& defaultWebDir) {
    Reader r(properties, env);
    Config c;
    c.environment = r.choice("STOREFRONT_ENV", "storefront.env", c.environment, {"production", "development"});
    c.bindAddress = r.str("STOREFRONT_BIND", "storefront.bind", c.bindAddress);
    c.port = r.integer("STOREFRONT_PORT", "storefront.port", c.port, 0, 65535);
    c.publicUrl = r.str("STOREFRONT_PUBLIC_URL", "storefront.publicUrl", "http://localhost:" + std::to_string(c.port));
    while (c.publicUrl.ends_with('/')) c.publicUrl.pop_back();
    try {
        Poco::URI uri(c.publicUrl);
        if ((uri.getScheme() != "http" && uri.getScheme() != "https") || uri.getHost().empty() ||
            !uri.getQuery().empty() || !uri.getFragment().empty())
            throw std::invalid_argument(""); // caught just below
    } catch (const std::exception&) {
        r.fail("STOREFRONT_PUBLIC_URL must be an http(s) origin such as https://shop.example.nz, got '" +
                                    c.publicUrl + "'");
    }
    c.dataDir = r.str("STOREFRONT_DATA_DIR", "storefront.dataDir", c.dataDir);
    c.database = r.str("STOREFRONT_DATABASE", "storefront.database", c.dataDir + "/storefront.db");
    c.webDir = r.str("STOREFRONT_WEB_DIR", "storefront.webDir", defaultWebDir);
    c.seedCatalogue = r.boolean("STOREFRONT_SEED", "storefront.seed", c.seedCatalogue);
    c.demoData = r.boolean("STOREFRONT_DEMO_DATA", "storefront.demoData", c.demoData);
    c.httpThreads = r.integer("STOREFRONT_HTTP_THREADS", "storefront.http.threads", c.httpThreads, 4, 16384);
    c.httpLoops = r.integer("STOREFRONT_HTTP_LOOPS", "storefront.http.loops", c.httpLoops, 0, 64);
    c.httpQueue = r.integer("STOREFRONT_HTTP_QUEUE", "storefront.http.queue", c.httpQueue, 1, 65536);
    c.keepAliveSeconds = r.integer("STOREFRONT_KEEPALIVE_SECONDS", "storefront.http.keepAliveSeconds", c.keepAliveSeconds, 1, 300);
    c.readTimeoutSeconds =
        r.integer("STOREFRONT_HTTP_READ_TIMEOUT_SECONDS", "storefront.http.readTimeoutSeconds", c.readTimeoutSeconds, 1, 600);
    c.headerTimeoutSeconds = r.integer("STOREFRONT_HTTP_HEADER_TIMEOUT_SECONDS", "storefront.http.headerTimeoutSeconds",
                                       c.headerTimeoutSeconds, 1, 600);
    c.sendTimeoutSeconds =
        r.integer("STOREFRONT_SEND_TIMEOUT_SECONDS", "storefront.http.sendTimeoutSeconds", c.sendTimeoutSeconds, 1, 3600);
    {
        const auto text = Poco::trim(r.str("STOREFRONT_RESTORE_MAX_FILE_BYTES", "storefront.restore.maxFileBytes",
                                           std::to_string(c.restoreMaxFileBytes)));
        Poco::UInt64 bytes = 0;
        if (!Poco::NumberParser::tryParseUnsigned64(text, bytes) || bytes < 1024)
            r.fail("STOREFRONT_RESTORE_MAX_FILE_BYTES must be a whole number of bytes, at least 1024, got '" + text + "'");
        else
            c.restoreMaxFileBytes = bytes;
    }
    c.imageMaxPixels = r.integer("STOREFRONT_IMAGE_MAX_PIXELS", "storefront.images.maxPixels", static_cast<int>(c.imageMaxPixels),
                                 1'000'000, 1'000'000'000);
    c.maxExports = r.integer("STOREFRONT_MAX_EXPORTS", "storefront.http.maxExports", c.maxExports, 1, 1024);
    c.maxBodyBytes = static_cast<std::size_t>(
        r.integer("STOREFRONT_MAX_BODY_BYTES", "storefront.http.maxBodyBytes", static_cast<int>(c.maxBodyBytes), 1024, 64 << 20));
    c.dbPoolSize = r.integer("STOREFRONT_DB_POOL", "storefront.db.poolSize", c.dbPoolSize, 1, 1024);
    c.dbWaitMs = r.integer("STOREFRONT_DB_WAIT_MS", "storefront.db.waitMs", c.dbWaitMs, 10, 600000);
    c.dbLockTimeoutMs = r.integer("STOREFRONT_DB_LOCK_TIMEOUT_MS", "storefront.db.lockTimeoutMs", c.dbLockTimeoutMs, 0, 3600000);
    c.drainSeconds = r.integer("STOREFRONT_DRAIN_SECONDS", "storefront.http.drainSeconds", c.drainSeconds, 0, 3600);
    c.catalogCacheMs = r.integer("STOREFRONT_CATALOG_CACHE_MS", "storefront.catalog.cacheMs", c.catalogCacheMs, 0, 600000);
    c.mallocArenaMax = r.integer("STOREFRONT_MALLOC_ARENA_MAX", "storefront.malloc.arenaMax", c.mallocArenaMax, 0, 1024);
    c.mallocTrimSeconds = r.integer("STOREFRONT_MALLOC_TRIM_SECONDS", "storefront.malloc.trimSeconds", c.mallocTrimSeconds, 0, 86400);
    c.trustedProxies = splitList(r.str("STOREFRONT_TRUSTED_PROXIES", "storefront.http.trustedProxies", ""));
    c.contactLimitPerWindow = r.integer("STOREFRONT_CONTACT_LIMIT", "storefront.contact.limit", c.contactLimitPerWindow, 1, 100000);
    c.contactWindowSeconds = r.integer("STOREFRONT_CONTACT_WINDOW_SECONDS", "storefront.contact.windowSeconds", c.contactWindowSeconds, 1, 86400);
    c.logLevel = r.str("STOREFRONT_LOG_LEVEL", "storefront.logLevel", c.logLevel);
    c.logFormat = r.choice("STOREFRONT_LOG_FORMAT", "storefront.logFormat", c.logFormat, {"text", "json"});
    c.metricsToken = Poco::trim(r.str("STOREFRONT_METRICS_TOKEN", "storefront.metrics.token", ""));
    if (!c.metricsToken.empty() && c.metricsToken.size() < 16)
        r.fail("STOREFRONT_METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 32`)");

    auto& m = c.mail;
    m.transport = r.choice("STOREFRONT_MAIL_TRANSPORT", "storefront.mail.transport", m.transport, {"outbox", "smtp"});
    m.from = r.str("STOREFRONT_MAIL_FROM", "storefront.mail.from", m.from);
    m.salesAddress = r.str("STOREFRONT_SALES_EMAIL", "storefront.mail.salesAddress", m.salesAddress);
    // Every mail is composed with these (mail/wire.h): refuse at start what no message could carry.
    for (const auto& [name, value] : {std::pair{"STOREFRONT_MAIL_FROM", m.from}, {"STOREFRONT_SALES_EMAIL", m.salesAddress}}) {
        try {
            mail::parseMailbox(value);
        } catch (const std::invalid_argument& e) {
            r.fail(std::string(name) + " must be a mail address such as 'Shop <no-reply@shop.example.nz>': " +
                                        e.what());
        }
    }
    m.smtpHost = r.str("SMTP_HOST", "storefront.smtp.host", m.smtpHost);
    m.smtpPort = r.integer("SMTP_PORT", "storefront.smtp.port", m.smtpPort, 1, 65535);
    m.smtpUser = r.str("SMTP_USER", "storefront.smtp.user", m.smtpUser);
    m.smtpPassword = r.str("SMTP_PASSWORD", "storefront.smtp.password", m.smtpPassword);
    m.smtpSecurity = r.choice("SMTP_SECURITY", "storefront.smtp.security", m.smtpSecurity, {"starttls", "tls", "none"});
    m.smtpTimeoutSeconds = r.integer("SMTP_TIMEOUT_SECONDS", "storefront.smtp.timeoutSeconds", m.smtpTimeoutSeconds, 1, 300);
    if (m.transport == "smtp" && m.smtpHost.empty())
        r.fail("SMTP_HOST is required when STOREFRONT_MAIL_TRANSPORT is smtp");
    m.retryIntervalSeconds = r.integer("STOREFRONT_MAIL_RETRY_SECONDS", "storefront.mail.retrySeconds", m.retryIntervalSeconds, 1, 86400);
    m.maxAttempts = r.integer("STOREFRONT_MAIL_MAX_ATTEMPTS", "storefront.mail.maxAttempts", m.maxAttempts, 1, 1000);

    auto& a = c.auth;
    a.siteName = r.str("STOREFRONT_SITE_NAME", "storefront.siteName", a.siteName);
    a.supportEmail = Poco::trim(r.str("STOREFRONT_SUPPORT_EMAIL", "storefront.supportEmail", a.supportEmail));
    if (!mail::isValidEmailAddress(a.supportEmail))
        r.fail("STOREFRONT_SUPPORT_EMAIL must be a mail address such as help@shop.example.nz, got '" +
                                    a.supportEmail + "'");
    a.jwtExpirySeconds = r.integer("STOREFRONT_AUTH_JWT_EXPIRY_SECONDS", "storefront.auth.jwtExpirySeconds", a.jwtExpirySeconds, 30, 86400 * 7);
    a.sessionTimeboxSeconds = r.integer("STOREFRONT_AUTH_SESSION_TIMEBOX_SECONDS", "storefront.auth.sessionTimeboxSeconds", a.sessionTimeboxSeconds, 0, 366 * 86400);
    a.sessionInactivitySeconds = r.integer("STOREFRONT_AUTH_SESSION_INACTIVITY_SECONDS", "storefront.auth.sessionInactivitySeconds", a.sessionInactivitySeconds, 0, 366 * 86400);
    a.confirmEmail = r.boolean("STOREFRONT_AUTH_CONFIRM_EMAIL", "storefront.auth.confirmEmail", a.confirmEmail);
    a.adminMfaRequired = r.boolean("STOREFRONT_AUTH_ADMIN_MFA_REQUIRED", "storefront.auth.adminMfaRequired", a.adminMfaRequired);
    a.signupEnabled = r.boolean("STOREFRONT_AUTH_SIGNUP_ENABLED", "storefront.auth.signupEnabled", a.signupEnabled);
    a.passwordMinLength = r.integer("STOREFRONT_AUTH_PASSWORD_MIN_LENGTH", "storefront.auth.passwordMinLength", a.passwordMinLength, 6, 72);
    a.argon2Ops = r.integer("STOREFRONT_AUTH_ARGON2_OPS", "storefront.auth.argon2Ops", a.argon2Ops, 1, 10);
    a.argon2MemoryKib = r.integer("STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "storefront.auth.argon2MemoryKib", a.argon2MemoryKib, 8, 1024 * 1024);
    a.hashConcurrency = r.integer("STOREFRONT_AUTH_HASH_CONCURRENCY", "storefront.auth.hashConcurrency", a.hashConcurrency, 0, 256);
    a.hashQueue = r.integer("STOREFRONT_AUTH_HASH_QUEUE", "storefront.auth.hashQueue", a.hashQueue, 0, 4096);
    a.hashIdlePriority = r.boolean("STOREFRONT_AUTH_HASH_IDLE_PRIORITY", "storefront.auth.hashIdlePriority", a.hashIdlePriority);
    a.signinLimitPerAccount = r.integer("STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT", "storefront.auth.signinLimitPerAccount", a.signinLimitPerAccount, 1, 1000000);
    a.signinLimitPerAddress = r.integer("STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS", "storefront.auth.signinLimitPerAddress", a.signinLimitPerAddress, 1, 1000000);
    a.signinWindowSeconds = r.integer("STOREFRONT_AUTH_SIGNIN_WINDOW_SECONDS", "storefront.auth.signinWindowSeconds", a.signinWindowSeconds, 1, 86400);
    a.signupLimitPerAddress = r.integer("STOREFRONT_AUTH_SIGNUP_LIMIT_PER_ADDRESS", "storefront.auth.signupLimitPerAddress", a.signupLimitPerAddress, 1, 1000000);
    a.emailLimitPerAddress = r.integer("STOREFRONT_AUTH_EMAIL_LIMIT", "storefront.auth.emailLimit", a.emailLimitPerAddress, 1, 1000000);
    a.emailWindowSeconds = r.integer("STOREFRONT_AUTH_EMAIL_WINDOW_SECONDS", "storefront.auth.emailWindowSeconds", a.emailWindowSeconds, 1, 86400);
    a.linkExpirySeconds = r.integer("STOREFRONT_AUTH_LINK_EXPIRY_SECONDS", "storefront.auth.linkExpirySeconds", a.linkExpirySeconds, 60, 30 * 86400);
    a.mfaMaxAttempts = r.integer("STOREFRONT_AUTH_MFA_MAX_ATTEMPTS", "storefront.auth.mfaMaxAttempts", a.mfaMaxAttempts, 1, 100);
    a.mfaAccountLimit = r.integer("STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT", "storefront.auth.mfaAccountLimit", a.mfaAccountLimit, 1, 1000);
    a.mfaAccountWindowSeconds = r.integer("STOREFRONT_AUTH_MFA_ACCOUNT_WINDOW_SECONDS", "storefront.auth.mfaAccountWindowSeconds",
                                          a.mfaAccountWindowSeconds, 60, 86400);
    a.recentCodeSeconds = r.integer("STOREFRONT_AUTH_RECENT_CODE_SECONDS", "storefront.auth.recentCodeSeconds", a.recentCodeSeconds, 0, 3600);
    a.totpKey = Poco::trim(r.str("STOREFRONT_TOTP_KEY", "storefront.auth.totpKey", ""));
    if (!a.totpKey.empty() && a.totpKey.size() < 32)
        r.fail("STOREFRONT_TOTP_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)");
    a.totpKeyFile = c.dataDir.empty() ? std::string() : c.dataDir + "/totp.key";

    auto& p = c.payments;
    p.provider = r.choice("STOREFRONT_PAYMENT_PROVIDER", "storefront.payments.provider", p.provider, {"local", "stripe"});
    p.stripeSecretKey = r.str("STRIPE_SECRET_KEY", "storefront.stripe.secretKey", p.stripeSecretKey);
    p.stripeWebhookSecret = r.str("STRIPE_WEBHOOK_SECRET", "storefront.stripe.webhookSecret", p.stripeWebhookSecret);
    p.stripeApiBase = r.str("STRIPE_API_BASE", "storefront.stripe.apiBase", p.stripeApiBase);
    while (p.stripeApiBase.ends_with('/')) p.stripeApiBase.pop_back();
    if (!p.stripeApiBase.starts_with("https://") && !p.stripeApiBase.starts_with("http://"))
        r.fail("STRIPE_API_BASE must be an http(s) URL, got '" + p.stripeApiBase + "'");
    // Plain http only to this machine (a local fake of Stripe in development). Production refuses
    // it altogether, among its other problems (app/production.cpp): keys and card data never cross
    // a network unencrypted.
    if (!c.production() && p.stripeApiBase.starts_with("http://") && !isLoopbackUrl(p.stripeApiBase))
        r.fail("STRIPE_API_BASE must be https:// (plain http only to a loopback address), got '" +
                                    p.stripeApiBase + "'");
    p.allowTestPayments = r.boolean("STOREFRONT_ALLOW_TEST_PAYMENTS", "storefront.payments.allowTestPayments", p.allowTestPayments);
    p.stripeTimeoutSeconds = r.integer("STRIPE_TIMEOUT_SECONDS", "storefront.stripe.timeoutSeconds", p.stripeTimeoutSeconds, 1, 120);
    p.checkoutExpirySeconds = r.integer("STOREFRONT_CHECKOUT_EXPIRY_SECONDS", "storefront.payments.checkoutExpirySeconds",
                                        p.checkoutExpirySeconds, 60, 86400);
    p.pastDueGraceDays = r.integer("STOREFRONT_PAST_DUE_GRACE_DAYS", "storefront.payments.pastDueGraceDays", p.pastDueGraceDays, 0, 60);
    // Tax invoices: in development, demo values so a local invoice is complete; in production
    // nothing (app/production.cpp refuses to start without the legal name and GST number).
    auto& inv = p.invoices;
    const bool dev = !c.production();
    inv.legalName = Poco::trim(r.str("STOREFRONT_COMPANY_LEGAL_NAME", "storefront.company.legalName",
                                     dev ? "Storefront Demo Limited" : ""));
    inv.address = Poco::trim(r.str("STOREFRONT_COMPANY_ADDRESS", "storefront.company.address",
                                   dev ? "1 Queen Street, Auckland Central, Auckland 1010, New Zealand" : ""));
    const auto gst = Poco::trim(r.str("STOREFRONT_GST_NUMBER", "storefront.company.gstNumber", dev ? "49-091-850" : ""));
    if (!gst.empty()) {
        auto valid = billing::normalizeGstNumber(gst);
        if (!valid)
            r.fail("STOREFRONT_GST_NUMBER '" + gst + "' is not a valid GST (IRD) number: 8 or 9 digits whose check digit matches");
        else
            inv.gstNumber = *valid;
    }
    inv.prefix = r.str("STOREFRONT_INVOICE_PREFIX", "storefront.invoices.prefix", inv.prefix);
    if (inv.prefix.size() > 12 || !std::all_of(inv.prefix.begin(), inv.prefix.end(), [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '/' || ch == '_';
        }))
        r.fail("STOREFRONT_INVOICE_PREFIX must be at most 12 letters, digits, '-', '/' or '_', got '" +
                                    inv.prefix + "'");
    const auto zeroRated =
        Poco::trim(r.str("STOREFRONT_ZERO_RATED_CURRENCIES", "storefront.invoices.zeroRatedCurrencies", "AUD,USD"));
    try {
        inv.zeroRatedCurrencies = Poco::icompare(zeroRated, "none") == 0 ? std::vector<std::string>{}
                                                                           : billing::parseCurrencyList(zeroRated);
    } catch (const std::invalid_argument& e) {
        r.fail(std::string("STOREFRONT_ZERO_RATED_CURRENCIES: ") + e.what() +
                                    " (a comma-separated list such as AUD,USD, or none)");
    }
    if (std::find(inv.zeroRatedCurrencies.begin(), inv.zeroRatedCurrencies.end(), "NZD") != inv.zeroRatedCurrencies.end())
        r.fail("STOREFRONT_ZERO_RATED_CURRENCIES cannot include NZD (sales in New Zealand carry GST)");
    try {
        p.shippingCountries = billing::parseCountryList(
            r.str("STOREFRONT_SHIPPING_COUNTRIES", "storefront.payments.shippingCountries", "NZ,AU"));
    } catch (const std::invalid_argument& e) {
        r.fail(std::string("STOREFRONT_SHIPPING_COUNTRIES: ") + e.what());
    }
    if (p.provider == "stripe" && (p.stripeSecretKey.empty() || p.stripeWebhookSecret.empty()))
        r.fail("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required when STOREFRONT_PAYMENT_PROVIDER is stripe");
    auto& w = c.wirewrite;
    w.appUrl = r.str("STOREFRONT_WIREWRITE_APP_URL", "storefront.wirewrite.appUrl", w.appUrl);
    if (!w.appUrl.starts_with("https://") && !w.appUrl.starts_with("http://"))
        r.fail("STOREFRONT_WIREWRITE_APP_URL must be an http(s) URL, got '" + w.appUrl + "'");
    w.freeCertificateLimit = r.integer("STOREFRONT_WIREWRITE_FREE_CERTIFICATES", "storefront.wirewrite.freeCertificates",
                                       w.freeCertificateLimit, 1, 100000);
    w.inactivityEnabled = r.boolean("STOREFRONT_WIREWRITE_INACTIVITY_ENABLED", "storefront.wirewrite.inactivityEnabled", w.inactivityEnabled);
    w.inactivityWarnDays = r.integer("STOREFRONT_WIREWRITE_INACTIVITY_WARN_DAYS", "storefront.wirewrite.inactivityWarnDays",
                                     w.inactivityWarnDays, 1, 3650);
    w.inactivityDeleteDays = r.integer("STOREFRONT_WIREWRITE_INACTIVITY_DELETE_DAYS", "storefront.wirewrite.inactivityDeleteDays",
                                       w.inactivityDeleteDays, 2, 3650);
    if (w.inactivityDeleteDays <= w.inactivityWarnDays)
        r.fail("STOREFRONT_WIREWRITE_INACTIVITY_DELETE_DAYS must be greater than STOREFRONT_WIREWRITE_INACTIVITY_WARN_DAYS");
    w.inactivityIntervalSeconds = r.integer("STOREFRONT_WIREWRITE_INACTIVITY_INTERVAL_SECONDS",
                                            "storefront.wirewrite.inactivityIntervalSeconds", w.inactivityIntervalSeconds, 60, 7 * 86400);

    // The mail's HTML part: the logo's name and the footer's company (the tax invoices' supplier).
    m.brand = {a.siteName, inv.legalName, inv.address, c.publicUrl};
    m.print = r.boolean("STOREFRONT_MAIL_PRINT", "storefront.mail.print", false);
    if (p.allowTestPayments) m.subjectPrefix = "TEST PAYMENTS: ";
    if (m.print && c.production())
        r.fail("STOREFRONT_MAIL_PRINT=true prints account mail, whose links sign people in, to the log: "
                                    "development only");
    r.throwIfWrong();
    return c;
}

} // namespace storefront::app

#pragma once
// Every setting of the server, read from a properties file and the environment (the environment
// wins). docs/configuration.md lists them all; defaults sit beside each read in config.cpp.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace Poco::Util {
class AbstractConfiguration;
}

namespace storefront::app {

struct MailConfig {
    std::string transport = "outbox"; // outbox | smtp
    std::string from = "Signalcraft <no-reply@signalcraft.co.nz>";
    std::string salesAddress = "sales@signalcraft.co.nz";
    std::string smtpHost;
    int smtpPort = 587;
    std::string smtpUser;
    std::string smtpPassword;
    std::string smtpSecurity = "starttls"; // starttls | tls | none
    int retryIntervalSeconds = 60;
    int maxAttempts = 10;
};

// Sign-in, sessions and two-factor (docs/configuration.md, "Accounts").
struct AuthConfig {
    std::string siteName = "Signalcraft";     // TOTP issuer label and mail signature
    int jwtExpirySeconds = 3600;               // access-token lifetime
    int sessionTimeboxSeconds = 30 * 86400;    // absolute session lifetime (0: none)
    int sessionInactivitySeconds = 7 * 86400;  // a session not refreshed this long ends (0: never)
    bool confirmEmail = true;                  // sign-up needs the emailed link before sign-in
    bool adminMfaRequired = true;              // admins must enrol two-factor before admin routes
    bool signupEnabled = true;
    int passwordMinLength = 6;
    int argon2Ops = 2;                         // libsodium INTERACTIVE
    int argon2MemoryKib = 64 * 1024;           // libsodium INTERACTIVE (64 MiB)
    int hashConcurrency = 0;                   // concurrent password hashes (0: the core count)
    int hashQueue = 0;                         // hashes waiting for a slot before 429 (0: 4 x concurrency)
    int signinLimitPerAccount = 10;            // password attempts per account per window
    int signinLimitPerAddress = 60;            // password attempts per client address per window
    int signinWindowSeconds = 300;
    int signupLimitPerAddress = 30;            // sign-ups and emails sent per client address per window
    int emailLimitPerAddress = 5;              // link emails to one address per window
    int emailWindowSeconds = 3600;
    int linkExpirySeconds = 86400;             // confirmation, recovery and invite links
    int mfaMaxAttempts = 5;                    // wrong codes per challenge
};

// Checkout and payments (docs/configuration.md, "Payments").
struct PaymentsConfig {
    std::string provider = "local";              // local | stripe
    std::string stripeSecretKey;                 // sk_live_... / sk_test_...
    std::string stripeWebhookSecret;             // whsec_...; several, comma-separated, while rotating
    std::string stripeApiBase = "https://api.stripe.com";
    int stripeTimeoutSeconds = 20;
    int checkoutExpirySeconds = 1800;            // an unpaid checkout gives its stock back after this
};

struct Config {
    std::string bindAddress = "127.0.0.1";
    int port = 8080;
    std::string publicUrl = "http://localhost:8080"; // no trailing slash
    std::string dataDir = "data";
    std::string database; // SQLite path or postgresql:// URL; default <dataDir>/storefront.db
    std::string webDir;   // the web build (web/dist)
    bool seedCatalogue = true;
    int httpThreads = 1024;
    int httpQueue = 1024;
    int keepAliveSeconds = 5;
    std::size_t maxBodyBytes = 1 << 20;
    int dbPoolSize = 32;
    int catalogCacheMs = 2000; // public catalogue responses are reused this long (0: never)
    std::vector<std::string> trustedProxies;
    int contactLimitPerWindow = 5;   // contact submissions per client address
    int contactWindowSeconds = 600;  // ... per this many seconds
    std::string logLevel = "information";
    MailConfig mail;
    AuthConfig auth;
    PaymentsConfig payments;

    bool httpsPublicUrl() const { return publicUrl.starts_with("https://"); }
    bool postgres() const { return database.starts_with("postgresql://") || database.starts_with("postgres://"); }
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The process environment.
std::optional<std::string> processEnv(const std::string& name);

// Builds the configuration: environment variable, else the properties key, else the default.
// Throws std::invalid_argument with a message naming the setting when a value is unusable.
Config loadConfig(const Poco::Util::AbstractConfiguration& properties, const EnvLookup& env,
                  const std::string& defaultWebDir);

} // namespace storefront::app

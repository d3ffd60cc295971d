#pragma once
// The accounts settings: sign-in, sessions, two-factor, throttles, hashing cost.
// app/config.cpp reads them (docs/configuration.md lists each with its default).
#include <string>

namespace storefront::auth {

// Sign-in, sessions and two-factor (docs/configuration.md, "Accounts").
struct Settings {
    std::string siteName = "Signalcraft";     // TOTP issuer label and mail signature
    std::string supportEmail = "support@signalcraft.co.nz"; // where security notices send people for help
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
    bool hashIdlePriority = true;              // hashing workers under SCHED_IDLE (else nice 19 only)
    int signinLimitPerAccount = 10;            // password attempts per account per window
    int signinLimitPerAddress = 60;            // password attempts per client address per window
    int signinWindowSeconds = 300;
    int signupLimitPerAddress = 30;            // sign-ups and emails sent per client address per window
    int emailLimitPerAddress = 5;              // link emails to one address per window
    int emailWindowSeconds = 3600;
    int linkExpirySeconds = 86400;             // confirmation, recovery and invite links
    int mfaMaxAttempts = 5;                    // wrong codes per challenge
    int mfaAccountLimit = 10;                  // wrong codes per account (every challenge and session) per window
    int mfaAccountWindowSeconds = 900;         // ... then 429 until the oldest of them is this old
    int recentCodeSeconds = 300;               // a code entered this recently lets the session remove a factor
    // The key TOTP secrets are sealed with (auth/factor_secrets.h): STOREFRONT_TOTP_KEY, else the
    // key file (<data dir>/totp.key, created on first start). Never logged.
    std::string totpKey;
    std::string totpKeyFile;
};

} // namespace storefront::auth

#pragma once
// TOTP secrets at rest: sealed with XChaCha20-Poly1305 (libsodium AEAD) under a key of their own,
// bound to the factor's id, so a stolen database (or backup) does not give away anyone's second
// factor. The key comes from STOREFRONT_TOTP_KEY, else from the file <data dir>/totp.key, created
// on first start (docs/configuration.md, "Accounts"). Stored form: "v1:" + base64url(nonce | box).
// Rows written before encryption (plain base32) still work and are sealed at start-up.
#include <optional>
#include <string>
#include <string_view>

namespace storefront::auth {

struct Settings;

class FactorSecrets {
public:
    // Derives the 256-bit key from `keyMaterial` (at least 32 characters).
    explicit FactorSecrets(std::string_view keyMaterial);
    ~FactorSecrets();
    FactorSecrets(const FactorSecrets&) = delete;
    FactorSecrets& operator=(const FactorSecrets&) = delete;

    // The configured key (settings.totpKey), else the key file (settings.totpKeyFile), which is
    // created with 32 random bytes (mode 0600) when missing. Throws std::runtime_error naming the
    // setting when neither can be used.
    static FactorSecrets fromSettings(const Settings& settings);

    // The stored form of `secret` for factor `factorId`.
    std::string seal(const std::string& factorId, std::string_view secret) const;
    // The secret behind a stored value: sealed ones are opened, plain (legacy) ones returned as
    // they are; nullopt when a sealed value does not open under this key (wrong key, or moved to
    // another factor's row).
    std::optional<std::string> open(const std::string& factorId, std::string_view stored) const;
    static bool isSealed(std::string_view stored);

private:
    unsigned char key_[32] = {};
};

} // namespace storefront::auth

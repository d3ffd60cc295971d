// TOTP secrets at rest: sealed under their own key, bound to the factor, legacy plain text passes.
#include "app/config.h"
#include "auth/factor_secrets.h"
#include "auth/settings.h"

#include <Poco/AutoPtr.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

using storefront::auth::FactorSecrets;

namespace {
const std::string kTotpTestKey = "unit-test-totp-key-0123456789abcdefghij";
const std::string kOtherTotpTestKey = "another-totp-key-0123456789abcdefghijkl";
const std::string kTotpTestFactor = "6f1c2a4e-0c1b-4b7a-9a51-3f1e2d3c4b5a";
const std::string kTotpTestSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

std::string factorSecretsTempDir() {
    auto dir = std::filesystem::temp_directory_path() / ("factor-secrets-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    return dir.string();
}
} // namespace

TEST(FactorSecrets, TheStoredValueIsNotTheSecretAndOpensBack) {
    FactorSecrets secrets(kTotpTestKey);
    auto stored = secrets.seal(kTotpTestFactor, kTotpTestSecret);
    EXPECT_TRUE(stored.starts_with("v1:")) << stored;
    EXPECT_EQ(stored.find(kTotpTestSecret), std::string::npos);
    EXPECT_TRUE(FactorSecrets::isSealed(stored));
    EXPECT_NE(secrets.seal(kTotpTestFactor, kTotpTestSecret), stored); // a fresh nonce each time
    EXPECT_EQ(secrets.open(kTotpTestFactor, stored), kTotpTestSecret);
}

TEST(FactorSecrets, AnotherKeyAnotherFactorOrTamperingOpensToNothing) {
    FactorSecrets secrets(kTotpTestKey);
    auto stored = secrets.seal(kTotpTestFactor, kTotpTestSecret);
    EXPECT_EQ(FactorSecrets(kOtherTotpTestKey).open(kTotpTestFactor, stored), std::nullopt);
    EXPECT_EQ(secrets.open("0c1b6f1c-2a4e-4b7a-9a51-3f1e2d3c4b5a", stored), std::nullopt); // copied to another row
    auto tampered = stored;
    tampered.back() = tampered.back() == 'A' ? 'B' : 'A';
    EXPECT_EQ(secrets.open(kTotpTestFactor, tampered), std::nullopt);
    EXPECT_EQ(secrets.open(kTotpTestFactor, "v1:"), std::nullopt);
    EXPECT_EQ(secrets.open(kTotpTestFactor, "v1:not base64!"), std::nullopt);
}

TEST(FactorSecrets, PlainSecretsFromBeforeEncryptionStillOpen) {
    FactorSecrets secrets(kTotpTestKey);
    EXPECT_FALSE(FactorSecrets::isSealed(kTotpTestSecret));
    EXPECT_EQ(secrets.open(kTotpTestFactor, kTotpTestSecret), kTotpTestSecret);
}

TEST(FactorSecrets, AShortKeyIsRefused) {
    EXPECT_THROW(FactorSecrets("too-short"), std::runtime_error);
}

TEST(FactorSecrets, TheKeyFileIsCreatedOwnerOnlyAndReused) {
    namespace fs = std::filesystem;
    storefront::auth::Settings settings;
    settings.totpKeyFile = factorSecretsTempDir() + "/sub/totp.key";
    auto first = FactorSecrets::fromSettings(settings);
    ASSERT_TRUE(fs::exists(settings.totpKeyFile));
    EXPECT_EQ(fs::status(settings.totpKeyFile).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    auto stored = first.seal(kTotpTestFactor, kTotpTestSecret);
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kTotpTestFactor, stored), kTotpTestSecret); // same file, same key
    // The configured key wins over the file.
    settings.totpKey = kOtherTotpTestKey;
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kTotpTestFactor, stored), std::nullopt);
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kTotpTestFactor, FactorSecrets(kOtherTotpTestKey).seal(kTotpTestFactor, kTotpTestSecret)), kTotpTestSecret);
    // A key file too short to be a key stops start-up.
    settings.totpKey.clear();
    std::ofstream(settings.totpKeyFile, std::ios::trunc) << "short\n";
    EXPECT_THROW(FactorSecrets::fromSettings(settings), std::runtime_error);
}

TEST(FactorSecrets, ConfigReadsTheKeyAndPlacesTheFileInTheDataFolder) {
    Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;
    std::map<std::string, std::string> env{{"STOREFRONT_DATA_DIR", "/srv/shop"}};
    auto load = [&] {
        return storefront::app::loadConfig(*props, [&](const std::string& k) -> std::optional<std::string> {
            auto it = env.find(k);
            if (it == env.end()) return std::nullopt;
            return it->second;
        }, "web");
    };
    auto c = load();
    EXPECT_EQ(c.auth.totpKey, "");
    EXPECT_EQ(c.auth.totpKeyFile, "/srv/shop/totp.key");
    env["STOREFRONT_TOTP_KEY"] = kTotpTestKey;
    EXPECT_EQ(load().auth.totpKey, kTotpTestKey);
    env["STOREFRONT_TOTP_KEY"] = "short";
    EXPECT_THROW(load(), std::invalid_argument);
}

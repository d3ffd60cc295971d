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
const std::string kKey = "unit-test-totp-key-0123456789abcdefghij";
const std::string kOtherKey = "another-totp-key-0123456789abcdefghijkl";
const std::string kFactor = "6f1c2a4e-0c1b-4b7a-9a51-3f1e2d3c4b5a";
const std::string kSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

std::string tempDir() {
    auto dir = std::filesystem::temp_directory_path() / ("factor-secrets-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    return dir.string();
}
} // namespace

TEST(FactorSecrets, TheStoredValueIsNotTheSecretAndOpensBack) {
    FactorSecrets secrets(kKey);
    auto stored = secrets.seal(kFactor, kSecret);
    EXPECT_TRUE(stored.starts_with("v1:")) << stored;
    EXPECT_EQ(stored.find(kSecret), std::string::npos);
    EXPECT_TRUE(FactorSecrets::isSealed(stored));
    EXPECT_NE(secrets.seal(kFactor, kSecret), stored); // a fresh nonce each time
    EXPECT_EQ(secrets.open(kFactor, stored), kSecret);
}

TEST(FactorSecrets, AnotherKeyAnotherFactorOrTamperingOpensToNothing) {
    FactorSecrets secrets(kKey);
    auto stored = secrets.seal(kFactor, kSecret);
    EXPECT_EQ(FactorSecrets(kOtherKey).open(kFactor, stored), std::nullopt);
    EXPECT_EQ(secrets.open("0c1b6f1c-2a4e-4b7a-9a51-3f1e2d3c4b5a", stored), std::nullopt); // copied to another row
    auto tampered = stored;
    tampered.back() = tampered.back() == 'A' ? 'B' : 'A';
    EXPECT_EQ(secrets.open(kFactor, tampered), std::nullopt);
    EXPECT_EQ(secrets.open(kFactor, "v1:"), std::nullopt);
    EXPECT_EQ(secrets.open(kFactor, "v1:not base64!"), std::nullopt);
}

TEST(FactorSecrets, PlainSecretsFromBeforeEncryptionStillOpen) {
    FactorSecrets secrets(kKey);
    EXPECT_FALSE(FactorSecrets::isSealed(kSecret));
    EXPECT_EQ(secrets.open(kFactor, kSecret), kSecret);
}

TEST(FactorSecrets, AShortKeyIsRefused) {
    EXPECT_THROW(FactorSecrets("too-short"), std::runtime_error);
}

TEST(FactorSecrets, TheKeyFileIsCreatedOwnerOnlyAndReused) {
    namespace fs = std::filesystem;
    storefront::auth::Settings settings;
    settings.totpKeyFile = tempDir() + "/sub/totp.key";
    auto first = FactorSecrets::fromSettings(settings);
    ASSERT_TRUE(fs::exists(settings.totpKeyFile));
    EXPECT_EQ(fs::status(settings.totpKeyFile).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    auto stored = first.seal(kFactor, kSecret);
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kFactor, stored), kSecret); // same file, same key
    // The configured key wins over the file.
    settings.totpKey = kOtherKey;
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kFactor, stored), std::nullopt);
    EXPECT_EQ(FactorSecrets::fromSettings(settings).open(kFactor, FactorSecrets(kOtherKey).seal(kFactor, kSecret)), kSecret);
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
    env["STOREFRONT_TOTP_KEY"] = kKey;
    EXPECT_EQ(load().auth.totpKey, kKey);
    env["STOREFRONT_TOTP_KEY"] = "short";
    EXPECT_THROW(load(), std::invalid_argument);
}

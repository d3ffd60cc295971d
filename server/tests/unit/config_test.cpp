#include "app/config.h"

#include <Poco/AutoPtr.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <map>

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

TEST(Config, TrustedProxiesAreACommaSeparatedList) {
    Fixture f;
    f.env["STOREFRONT_TRUSTED_PROXIES"] = " 127.0.0.1, ::1 ,,10.0.0.5";
    auto c = f.load();
    ASSERT_EQ(c.trustedProxies.size(), 3u);
    EXPECT_EQ(c.trustedProxies[0], "127.0.0.1");
    EXPECT_EQ(c.trustedProxies[1], "::1");
    EXPECT_EQ(c.trustedProxies[2], "10.0.0.5");
}

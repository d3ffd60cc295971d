// `storefront keys rotate|list`: the real executable on the harness's database. A rotation adds a
// key that signs from then on (on running servers within seconds, on new ones at once); tokens
// signed before it still verify and the old key stays in the JWKS until they have expired.
#include "api/auth_support.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <thread>

using namespace testing_support;

namespace {

using KeysRun = CommandRun;

KeysRun keysCommand(const std::vector<std::string>& args, const std::string& database) {
    std::vector<std::string> all = {"keys"};
    all.insert(all.end(), args.begin(), args.end());
    return runStorefront(all, {
                                  {"STOREFRONT_DATABASE", database},
                                  {"STOREFRONT_DATA_DIR", ::testing::TempDir() + "/keys-" + storefront::db::newId()},
                                  {"STOREFRONT_TOTP_KEY", kTotpKey},
                                  {"STOREFRONT_LOG_LEVEL", "warning"},
                              });
}

KeysRun keysOnTestDatabase(const std::vector<std::string>& args) { return keysCommand(args, env().server->config().database); }

// kid -> the rest of its `keys list` line ("created ... signing" etc.).
std::map<std::string, std::string> listedKeys(const std::string& out) {
    std::map<std::string, std::string> keys;
    std::regex line(R"(^(\S+)  created (\S+)  (.*)$)");
    std::istringstream in(out);
    for (std::string text; std::getline(in, text);) {
        std::smatch m;
        if (std::regex_match(text, m, line)) keys[m[1]] = m[3];
    }
    return keys;
}

std::set<std::string> jwksKids(int port) {
    std::set<std::string> kids;
    const auto jwks = http(port, "GET", "/auth/v1/.well-known/jwks.json").json();
    for (const auto& k : jwks["keys"]) kids.insert(k["kid"].get<std::string>());
    return kids;
}

} // namespace

TEST(KeysCommand, RotationSignsWithTheNewKeyAndOldTokensStillVerify) {
    const auto ip = newClientIp();
    auto account = createUser("rotate");
    auto before = signIn(account, ip);
    const std::string oldKid = jwtHeader(before.accessToken)["kid"];

    auto run = keysOnTestDatabase({"rotate"});
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(run.out, m, std::regex(R"(new signing key (\S+))"))) << run.out;
    const std::string newKid = m[1];
    EXPECT_NE(newKid, oldKid);
    auto keys = listedKeys(keysOnTestDatabase({"list"}).out);
    EXPECT_EQ(keys[newKid], "signing") << run.out;
    EXPECT_TRUE(keys[oldKid].starts_with("verifying until ")) << keys[oldKid];

    // A server started now signs with the new key and still accepts the old token.
    const int fresh = serverWith({{"STOREFRONT_SITE_NAME", "Rotated " + unique("k")}});
    auto signedFresh = http(fresh, "POST", "/auth/v1/token?grant_type=password",
                            nlohmann::json{{"email", account.email}, {"password", account.password}}.dump(),
                            {{"Content-Type", "application/json"}, {"X-Forwarded-For", ip}});
    ASSERT_EQ(signedFresh.status, 200) << signedFresh.body;
    EXPECT_EQ(jwtHeader(signedFresh.json()["access_token"])["kid"], newKid);
    EXPECT_EQ(http(fresh, "GET", "/auth/v1/user", "", before.headers()).status, 200);
    auto kids = jwksKids(fresh);
    EXPECT_TRUE(kids.contains(oldKid) && kids.contains(newKid)) << kids.size();

    // The server that was already running re-reads the keys when it signs, at most 5 s after the last read.
    std::this_thread::sleep_for(std::chrono::seconds(6));
    auto after = signIn(account, ip);
    EXPECT_EQ(jwtHeader(after.accessToken)["kid"], newKid);
    EXPECT_EQ(userRequest(after).status, 200);
    EXPECT_EQ(userRequest(before).status, 200) << "a token signed before the rotation still verifies";
    kids = jwksKids(env().port);
    EXPECT_TRUE(kids.contains(oldKid) && kids.contains(newKid)) << kids.size();
}

TEST(KeysCommand, KeysNoTokenCanNeedAreRetiredAtTheNextRotation) {
    const std::string database = ::testing::TempDir() + "/keys-" + storefront::db::newId() + ".db";
    ASSERT_EQ(keysCommand({"rotate"}, database).exitCode, 0); // the first key
    ASSERT_EQ(keysCommand({"rotate"}, database).exitCode, 0);
    auto keys = listedKeys(keysCommand({"list"}, database).out);
    ASSERT_EQ(keys.size(), 2u);
    std::string first, second;
    for (const auto& [kid, state] : keys) (state == "signing" ? second : first) = kid;
    ASSERT_FALSE(first.empty());
    ASSERT_FALSE(second.empty());
    {
        // Two days ago the second key replaced the first: every token the first signed has expired.
        auto db = storefront::db::Database::open(database);
        db->write([&](storefront::db::Tx& tx) {
            tx.query("UPDATE auth_signing_keys SET created_at = ? WHERE kid = ?").bind(testClock().timestampAfter(-3 * 86400), first).run();
            tx.query("UPDATE auth_signing_keys SET created_at = ? WHERE kid = ?").bind(testClock().timestampAfter(-2 * 86400), second).run();
        });
    }
    keys = listedKeys(keysCommand({"list"}, database).out);
    EXPECT_TRUE(keys[first].starts_with("expired since ")) << keys[first];
    EXPECT_EQ(keys[second], "signing");
    auto run = keysCommand({"rotate"}, database);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    keys = listedKeys(run.out);
    ASSERT_EQ(keys.size(), 3u) << run.out;
    EXPECT_EQ(keys[first], "retired");
    EXPECT_TRUE(keys[second].starts_with("verifying until ")) << keys[second];
    {
        auto db = storefront::db::Database::open(database);
        auto s = db->session();
        EXPECT_EQ(storefront::db::query(s, "SELECT COUNT(*) FROM auth_signing_keys WHERE active = TRUE").count(), 2);
    }
}

TEST(KeysCommand, AnUnknownSubcommandPrintsTheUsage) {
    auto run = keysOnTestDatabase({"spin"});
    EXPECT_EQ(run.exitCode, 64);
    EXPECT_NE(run.err.find("usage: storefront keys rotate|list"), std::string::npos) << run.err;
    run = keysOnTestDatabase({"list", "--verbose"});
    EXPECT_EQ(run.exitCode, 64);
}

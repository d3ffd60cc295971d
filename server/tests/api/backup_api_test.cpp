// `storefront backup` and `storefront restore` (docs/operations.md, "Backups"): a backup taken
// while orders are written holds every order acknowledged before it began, restores into a new
// folder where a server starts and a user with two-factor signs in with a code; restore refuses a
// folder that is not empty and an archive that is damaged or not a backup.
#include "api/auth_support.h"
#include "api/billing_support.h"
#include "api/crash_support.h"
#include "app/backup.h"
#include "auth/totp.h"
#include "db/database.h"

#include <Poco/Data/Session.h>
#include <Poco/Zip/Compress.h>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace testing_support;
namespace fs = std::filesystem;
using namespace Poco::Data::Keywords;

namespace {

const std::string kPassword = "Kea-nest-2024";

// A folder of the test's own under the temp folder, removed at the end.
struct TempFolder {
    fs::path path = fs::path(::testing::TempDir()) / ("backup-" + storefront::db::newId().substr(0, 8));
    TempFolder() { fs::create_directories(path); }
    ~TempFolder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

// The settings of a server (and of the commands run for it) on its own SQLite data folder. No
// STOREFRONT_TOTP_KEY: the server makes <data>/totp.key, which the backup must carry.
std::map<std::string, std::string> folderSettings(const fs::path& dataDir) {
    return {
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", "0"},
        {"STOREFRONT_DATA_DIR", dataDir.string()},
        {"STOREFRONT_WEB_DIR", env().webDir},
        {"STOREFRONT_PUBLIC_URL", kPublicUrl},
        {"STOREFRONT_TRUSTED_PROXIES", "127.0.0.1"},
        {"STOREFRONT_LOG_LEVEL", "warning"},
        {"STOREFRONT_MAIL_TRANSPORT", "outbox"},
        {"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"},
        {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
        {"PATH", "/usr/bin:/bin"},
    };
}

struct SignedUp {
    std::string ip, accessToken, email;
};

SignedUp signUpOn(int port, const std::string& prefix) {
    SignedUp u{newClientIp(), "", newEmail(prefix)};
    auto r = sendJson(port, "POST", "/auth/v1/signup", {{"email", u.email}, {"password", kPassword}}, as(u.ip));
    if (r.status != 200) throw std::runtime_error("sign-up: " + r.body);
    u.accessToken = r.json().at("access_token").get<std::string>();
    return u;
}

// Challenge and verify `factorId` with the code of `step`; the answer of the verify.
HttpResult verifyWithCode(int port, const SignedUp& u, const std::string& factorId, const std::string& secret,
                          std::int64_t step) {
    auto c = http(port, "POST", "/auth/v1/factors/" + factorId + "/challenge", "", as(u.ip, u.accessToken));
    if (c.status != 200) return c;
    return sendJson(port, "POST", "/auth/v1/factors/" + factorId + "/verify",
                    {{"challenge_id", c.json().at("id")}, {"code", storefront::auth::totpCode(secret, step)}},
                    as(u.ip, u.accessToken));
}

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> folderEntries(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::exists(dir, ec)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(e.path().lexically_relative(dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

// A small archive: a fresh SQLite database (migrated) and a key file, backed up.
fs::path smallArchive(const TempFolder& scratch) {
    const auto data = scratch.path / "source";
    fs::create_directories(data);
    auto vars = folderSettings(data);
    auto migrated = runStorefront({"migrate"}, vars);
    if (migrated.exitCode != 0) throw std::runtime_error("migrate: " + migrated.err);
    std::ofstream(data / "totp.key") << "a-totp-key-of-at-least-thirty-two-characters\n";
    const auto archive = scratch.path / "small.zip";
    auto run = runStorefront({"backup", "--to", archive.string()}, vars);
    if (run.exitCode != 0) throw std::runtime_error("backup: " + run.err);
    return archive;
}

} // namespace

TEST(BackupApi, BackupUnderLoadHoldsEveryAcknowledgedOrderAndRestoresTwoFactor) {
    TempFolder scratch;
    const auto source = scratch.path / "live", restored = scratch.path / "restored";
    const auto archive = scratch.path / "shop.zip";
    auto live = startServer(folderSettings(source));
    const int port = live->port();

    // A user with two-factor.
    auto member = signUpOn(port, "backup-2fa");
    auto enrol = sendJson(port, "POST", "/auth/v1/factors", {{"factor_type", "totp"}}, as(member.ip, member.accessToken));
    ASSERT_EQ(enrol.status, 200) << enrol.body;
    const std::string factorId = enrol.json()["id"], secret = enrol.json()["totp"]["secret"];
    const auto step = totpStepNow();
    auto verified = verifyWithCode(port, member, factorId, secret, step);
    ASSERT_EQ(verified.status, 200) << verified.body;

    // Buyers start checkouts (each a pending order) as fast as they can.
    constexpr int kBuyers = 4;
    std::vector<SignedUp> buyers;
    for (int i = 0; i < kBuyers; ++i) buyers.push_back(signUpOn(port, "backup-buyer"));
    std::mutex mutex;
    std::vector<std::string> acknowledged; // checkout ids, in the order their answers arrived
    std::atomic<bool> stop{false};
    std::atomic<int> failures{0};
    std::vector<std::thread> load;
    for (const auto& buyer : buyers)
        load.emplace_back([&, buyer] {
            while (!stop) {
                auto r = sendJson(port, "POST", "/functions/v1/create-checkout-session",
                                  {{"productSlug", "hhtraff"}, {"priceId", kMonthlyPlanId}}, as(buyer.ip, buyer.accessToken));
                if (r.status != 200) {
                    ++failures;
                    continue;
                }
                std::lock_guard lock(mutex);
                acknowledged.push_back(r.json().at("checkoutId").get<std::string>());
            }
        });
    const auto count = [&] {
        std::lock_guard lock(mutex);
        return acknowledged.size();
    };
    ASSERT_TRUE(eventually([&] { return count() >= 20; }));
    std::vector<std::string> before;
    {
        std::lock_guard lock(mutex);
        before = acknowledged;
    }
    auto backup = runStorefront({"backup", "--to", archive.string()}, folderSettings(source));
    const auto atEnd = count();
    ASSERT_TRUE(eventually([&] { return count() >= atEnd + 10; })) << "the server stopped serving orders";
    stop = true;
    for (auto& t : load) t.join();
    EXPECT_EQ(failures.load(), 0);
    ASSERT_EQ(backup.exitCode, 0) << backup.err;
    EXPECT_NE(backup.out.find("online backup"), std::string::npos) << backup.out;
    EXPECT_NE(backup.out.find("totp.key is in the archive"), std::string::npos) << backup.out;
    struct stat st {};
    ASSERT_EQ(::stat(archive.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    // Nothing half-written is left beside it.
    std::vector<std::string> beside;
    for (const auto& e : fs::directory_iterator(scratch.path)) beside.push_back(e.path().filename().string());
    std::sort(beside.begin(), beside.end());
    EXPECT_EQ(beside, (std::vector<std::string>{"live", "shop.zip"}));
    const auto liveKey = readBytes(source / "totp.key");
    live->stop();
    live.reset();

    auto restore = runStorefront({"restore", "--from", archive.string()}, folderSettings(restored));
    ASSERT_EQ(restore.exitCode, 0) << restore.err << restore.out;
    EXPECT_NE(restore.out.find("integrity_check: ok"), std::string::npos) << restore.out;
    EXPECT_EQ(readBytes(restored / "totp.key"), liveKey);
    {
        Poco::Data::Session s("SQLite", (restored / "storefront.db").string());
        std::string integrity;
        s << "PRAGMA integrity_check", into(integrity), now;
        EXPECT_EQ(integrity, "ok");
        int missing = 0;
        for (const auto& id : before) {
            std::string checkoutId = id;
            int found = 0;
            s << "SELECT COUNT(*) FROM checkout_sessions c JOIN orders o ON o.id = c.order_id WHERE c.id = ?", use(checkoutId),
                into(found), now;
            missing += found == 1 ? 0 : 1;
        }
        EXPECT_EQ(missing, 0) << "of " << before.size() << " orders acknowledged before the backup began";
    }

    // A server on the restored folder: the two-factor user signs in with a code.
    auto again = startServer(folderSettings(restored));
    const int restoredPort = again->port();
    auto signin = sendJson(restoredPort, "POST", "/auth/v1/token?grant_type=password",
                           {{"email", member.email}, {"password", kPassword}}, as(member.ip));
    ASSERT_EQ(signin.status, 200) << signin.body;
    SignedUp back{member.ip, signin.json()["access_token"], member.email};
    EXPECT_EQ(jwtClaims(back.accessToken)["aal"], "aal1");
    // The next step's code (a used step is refused; the server accepts one step ahead).
    auto stepped = verifyWithCode(restoredPort, back, factorId, secret, step + 1);
    ASSERT_EQ(stepped.status, 200) << stepped.body;
    EXPECT_EQ(jwtClaims(stepped.json()["access_token"])["aal"], "aal2");
    again->stop();
}

TEST(BackupApi, RestoreRefusesAFolderThatIsNotEmptyAndChangesNothing) {
    TempFolder scratch;
    const auto archive = smallArchive(scratch);
    const auto target = scratch.path / "occupied";
    fs::create_directories(target);
    std::ofstream(target / "notes.txt") << "keep me\n";
    auto run = runStorefront({"restore", "--from", archive.string()}, folderSettings(target));
    EXPECT_EQ(run.exitCode, 65);
    EXPECT_NE(run.err.find("is not empty"), std::string::npos) << run.err;
    EXPECT_EQ(folderEntries(target), std::vector<std::string>{"notes.txt"});
    EXPECT_EQ(readBytes(target / "notes.txt"), "keep me\n");

    // The same archive into an empty folder works.
    const auto empty = scratch.path / "empty";
    fs::create_directories(empty);
    auto ok = runStorefront({"restore", "--from", archive.string()}, folderSettings(empty));
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_EQ(folderEntries(empty), (std::vector<std::string>{"storefront.db", "totp.key"}));
}

TEST(BackupApi, RestoreRefusesADamagedOrForeignArchiveAndLeavesNothing) {
    TempFolder scratch;
    const auto archive = smallArchive(scratch);
    const auto bytes = readBytes(archive);
    const auto refused = [&](const fs::path& file, const std::string& expected) {
        const auto target = scratch.path / ("target-" + storefront::db::newId().substr(0, 8));
        auto run = runStorefront({"restore", "--from", file.string()}, folderSettings(target));
        EXPECT_EQ(run.exitCode, 65) << file << ": a refusal (EX_DATAERR), not a failure: " << run.err;
        EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
        EXPECT_TRUE(folderEntries(target).empty()) << file << " left files behind";
    };

    // One byte changed in the middle (the database's compressed pages).
    auto tampered = bytes;
    tampered[tampered.size() / 2] = static_cast<char>(tampered[tampered.size() / 2] ^ 0x5a);
    std::ofstream(scratch.path / "tampered.zip", std::ios::binary) << tampered;
    refused(scratch.path / "tampered.zip", "damaged");

    // Cut short.
    std::ofstream(scratch.path / "short.zip", std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    refused(scratch.path / "short.zip", "storefront restore: ");

    // Not a zip at all, and a zip without a manifest.
    std::ofstream(scratch.path / "notes.zip") << "just some text\n";
    refused(scratch.path / "notes.zip", "not a Storefront backup");
    {
        std::ofstream out(scratch.path / "foreign.zip", std::ios::binary);
        Poco::Zip::Compress zip(out, true);
        std::istringstream content("hello");
        zip.addFile(content, Poco::DateTime(), Poco::Path("storefront.db"));
        zip.close();
    }
    refused(scratch.path / "foreign.zip", "no manifest.json");
    refused(scratch.path / "missing.zip", "there is no file");
}

TEST(BackupApi, OnPostgresWritesTheKeysAndPrintsThePgDumpCommand) {
    if (!onPostgres()) GTEST_SKIP() << "PostgreSQL only: needs STOREFRONT_TEST_DATABASE";
    TempFolder scratch;
    const auto data = scratch.path / "data";
    fs::create_directories(data);
    std::ofstream(data / "totp.key") << "a-totp-key-of-at-least-thirty-two-characters\n";
    auto vars = folderSettings(data);
    const std::string url = std::getenv("STOREFRONT_TEST_DATABASE");
    vars["STOREFRONT_DATABASE"] = url;
    vars["STOREFRONT_TOTP_KEY"] = kTotpKey;
    const auto archive = scratch.path / "pg.zip";
    auto run = runStorefront({"backup", "--to", archive.string()}, vars);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("pg_dump --format=custom --file='" + (scratch.path / "pg.pgdump").string() + "' '" +
                           storefront::app::urlWithoutPassword(url) + "'"),
              std::string::npos)
        << run.out;
    EXPECT_EQ(run.out.find(kTotpKey), std::string::npos) << "the key itself is never printed";
    EXPECT_NE(run.out.find("STOREFRONT_TOTP_KEY, so NOT in this archive"), std::string::npos) << run.out;
    EXPECT_TRUE(fs::is_regular_file(archive));

    // It restores the key files into an empty folder and prints the matching pg_restore.
    auto restoreVars = vars;
    restoreVars["STOREFRONT_DATA_DIR"] = (scratch.path / "restored").string();
    auto restore = runStorefront({"restore", "--from", archive.string()}, restoreVars);
    ASSERT_EQ(restore.exitCode, 0) << restore.err;
    EXPECT_NE(restore.out.find("pg_restore --no-owner"), std::string::npos) << restore.out;
    EXPECT_EQ(readBytes(scratch.path / "restored" / "totp.key"), readBytes(data / "totp.key"));
    // A PostgreSQL archive does not restore onto SQLite.
    auto sqliteVars = folderSettings(scratch.path / "sqlite");
    auto wrong = runStorefront({"restore", "--from", archive.string()}, sqliteVars);
    EXPECT_NE(wrong.exitCode, 0);
    EXPECT_NE(wrong.err.find("made on PostgreSQL"), std::string::npos) << wrong.err;
}

TEST(BackupApi, ServerRefusesToStartWhenAnAppliedMigrationChanged) {
    TempFolder scratch;
    const auto data = scratch.path / "data";
    fs::create_directories(data);
    auto vars = folderSettings(data);
    ASSERT_EQ(runStorefront({"migrate"}, vars).exitCode, 0);
    {
        Poco::Data::Session s("SQLite", (data / "storefront.db").string());
        s << "UPDATE schema_migrations SET checksum = 'sha256:0000' WHERE version = '0004_companion.sql'", now;
    }
    auto run = runStorefront({"migrate"}, vars);
    EXPECT_NE(run.exitCode, 0);
    EXPECT_NE((run.err + run.out).find("migration 0004_companion.sql was changed"), std::string::npos) << run.err << run.out;
    try {
        startServer(vars)->stop();
        ADD_FAILURE() << "the server started";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("0004_companion.sql"), std::string::npos) << e.what();
    }
}

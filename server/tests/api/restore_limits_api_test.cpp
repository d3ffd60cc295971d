// Issue 32: `storefront restore` against hostile archives. An entry is never written past the
// size its manifest declares (a zip bomb whose manifest says 4 KB writes no more than that and is
// refused), a declared size over STOREFRONT_RESTORE_MAX_FILE_BYTES (16 GiB) is refused before
// anything is written, so is a backup larger than the disk's free space, and every refusal leaves
// the data folder as it was.
#include "api/harness.h"
#include "app/backup.h"
#include "app/config.h"

#include <Poco/AutoPtr.h>
#include <Poco/DateTime.h>
#include <Poco/Path.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Zip/Compress.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>

using namespace testing_support;
namespace fs = std::filesystem;

namespace restore_limits_test {

// `bytes` zero bytes as a stream, made as they are read (the bomb's content is never held).
class Zeros : public std::streambuf {
public:
    explicit Zeros(std::uint64_t bytes) : left_(bytes) {}

protected:
    int_type underflow() override {
        if (left_ == 0) return traits_type::eof();
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left_, sizeof block_));
        left_ -= n;
        setg(block_, block_, block_ + n);
        return traits_type::to_int_type(block_[0]);
    }

private:
    std::uint64_t left_;
    char block_[1 << 16] = {};
};

// An archive whose manifest lists storefront.db as `declaredBytes` and whose entry holds
// `actualBytes` zero bytes.
fs::path writeArchive(const fs::path& dir, std::uint64_t declaredBytes, std::uint64_t actualBytes) {
    const auto path = dir / "archive.zip";
    std::ofstream out(path, std::ios::binary);
    Poco::Zip::Compress zip(out, true);
    const nlohmann::json manifest = {
        {"format", "storefront-backup"},
        {"format_version", storefront::app::kBackupFormatVersion},
        {"created_at", "2026-01-01T00:00:00.000Z"},
        {"database", {{"dialect", "sqlite"}, {"schema_version", "0001_core.sql"}, {"included", true}}},
        {"totp_key", "none"},
        {"files", {{{"name", "storefront.db"}, {"size", declaredBytes}, {"sha256", std::string(64, '0')}}}}};
    std::istringstream manifestText(manifest.dump());
    zip.addFile(manifestText, Poco::DateTime(), Poco::Path("manifest.json"));
    Zeros zeros(actualBytes);
    std::istream content(&zeros);
    zip.addFile(content, Poco::DateTime(), Poco::Path("storefront.db"));
    zip.close();
    return path;
}

storefront::app::Config restoreConfig(const fs::path& target, const std::map<std::string, std::string>& extra = {}) {
    std::map<std::string, std::string> vars = {{"STOREFRONT_ENV", "development"}, {"STOREFRONT_DATA_DIR", target.string()}};
    for (const auto& [k, v] : extra) vars[k] = v;
    Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;
    return storefront::app::loadConfig(*props, [&vars](const std::string& k) -> std::optional<std::string> {
        auto it = vars.find(k);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    }, "");
}

// Bytes this process has written with write(2) and its kind so far (/proc/self/io "wchar").
std::uint64_t bytesWritten() {
    std::ifstream io("/proc/self/io");
    std::string key;
    std::uint64_t value = 0;
    while (io >> key >> value)
        if (key == "wchar:") return value;
    return 0;
}

std::string refusalOf(const storefront::app::Config& config, const fs::path& archive) {
    std::ostringstream out;
    try {
        storefront::app::restoreBackup(config, archive.string(), out);
    } catch (const storefront::app::BackupRefused& e) {
        return e.what();
    }
    return "";
}

struct Scratch {
    fs::path path = fs::temp_directory_path() / ("restore-limits-" + storefront::db::newId());
    Scratch() { fs::create_directories(path); }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

} // namespace restore_limits_test

using namespace restore_limits_test;

TEST(RestoreLimits, AZipBombWritesNoMoreThanItsDeclaredSizeAndIsRefused) {
    Scratch scratch;
    // 256 MiB of zeros deflate to about a quarter of a megabyte; the manifest says 4 KB.
    const auto archive = writeArchive(scratch.path, 4096, 256ULL << 20);
    EXPECT_LT(fs::file_size(archive), 2u << 20);
    const auto target = scratch.path / "data";
    const auto before = bytesWritten();
    const auto refusal = refusalOf(restoreConfig(target), archive);
    const auto written = bytesWritten() - before;
    EXPECT_NE(refusal.find("storefront.db is larger than the 4096 bytes its manifest declares"), std::string::npos) << refusal;
    // The old restore wrote all 256 MiB before comparing; now at most the declared 4 KB (and this
    // process's own log and test files: a few kilobytes) are written.
    EXPECT_LT(written, 4u << 20) << "bytes written during the restore";
    EXPECT_FALSE(fs::exists(target)) << "the refused restore left its data folder behind";

    // The command says so and exits 65 (EX_DATAERR).
    auto run = runStorefront({"restore", "--from", archive.string()},
                             {{"STOREFRONT_DATA_DIR", (scratch.path / "data2").string()}, {"STOREFRONT_ENV", "development"}});
    EXPECT_EQ(run.exitCode, 65) << run.err;
    EXPECT_NE(run.err.find("larger than the 4096 bytes"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(scratch.path / "data2"));
}

TEST(RestoreLimits, ADeclaredSizeOverTheLimitIsRefusedBeforeAnythingIsWritten) {
    Scratch scratch;
    const auto archive = writeArchive(scratch.path, 17ULL << 30, 1000); // 17 GiB declared
    const auto target = scratch.path / "data";
    const auto refusal = refusalOf(restoreConfig(target), archive);
    EXPECT_NE(refusal.find("over the limit of 17179869184 (STOREFRONT_RESTORE_MAX_FILE_BYTES)"), std::string::npos) << refusal;
    EXPECT_FALSE(fs::exists(target));
    // A lower limit applies the same way.
    const auto small = writeArchive(scratch.path, 8192, 1000);
    const auto lowered = refusalOf(restoreConfig(target, {{"STOREFRONT_RESTORE_MAX_FILE_BYTES", "4096"}}), small);
    EXPECT_NE(lowered.find("over the limit of 4096"), std::string::npos) << lowered;
    EXPECT_FALSE(fs::exists(target));
}

TEST(RestoreLimits, ABackupLargerThanTheFreeSpaceIsRefusedBeforeAnythingIsWritten) {
    Scratch scratch;
    const std::uint64_t petabyte = 1ULL << 50; // no test machine has this free
    const auto archive = writeArchive(scratch.path, petabyte, 1000);
    const auto target = scratch.path / "data";
    const auto refusal =
        refusalOf(restoreConfig(target, {{"STOREFRONT_RESTORE_MAX_FILE_BYTES", std::to_string(petabyte)}}), archive);
    EXPECT_NE(refusal.find("free (with 64 MiB to spare)"), std::string::npos) << refusal;
    EXPECT_FALSE(fs::exists(target));
}

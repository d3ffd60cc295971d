#include "app/backup.h"

#include "app/backup_archive.h"
#include "db/database.h"
#include "db/embedded_sql.h"
#include "db/migrations.h"

#include <Poco/DateTime.h>
#include <Poco/Path.h>
#include <Poco/URI.h>
#include <Poco/Zip/Compress.h>
#include <Poco/Zip/ZipArchive.h>
#include <Poco/Zip/ZipStream.h>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <vector>


namespace fs = std::filesystem;
using nlohmann::json;

namespace storefront::app {

using namespace archive;

namespace {

// What a restore leaves free on the disk beyond the files themselves (SQLite's journal, the log).
constexpr std::uint64_t kRestoreHeadroomBytes = 64ULL << 20;

// Free bytes for an unprivileged writer on the file system of `path` (or of its nearest existing
// parent: the data folder may not exist yet); nullopt when it cannot be told.
std::optional<std::uint64_t> freeBytesAt(fs::path path) {
    std::error_code ec;
    while (!path.empty() && !fs::exists(path, ec)) path = path.parent_path();
    const auto space = fs::space(path.empty() ? fs::path(".") : path, ec);
    if (ec) return std::nullopt;
    return static_cast<std::uint64_t>(space.available);
}

} // namespace

void restoreBackup(const Config& config, const std::string& archivePath, std::ostream& out) {
    if (archivePath.empty()) throw BackupRefused("--from needs a file name");
    const fs::path source = fs::absolute(archivePath);
    std::error_code ec;
    if (!fs::is_regular_file(source, ec)) throw BackupRefused("there is no file " + source.string());
    const fs::path dataDir = fs::absolute(config.dataDir.empty() ? fs::path(".") : fs::path(config.dataDir));
    if (config.dataDir.empty()) throw BackupRefused("STOREFRONT_DATA_DIR is empty: restore needs a data folder");

    // The target first: the refusal an operator is most likely to meet, before reading anything.
    if (!folderIsEmpty(dataDir))
        throw BackupRefused("the data folder " + dataDir.string() +
                            " is not empty: restore only goes into an empty or new folder, so that nothing is "
                            "overwritten. Set STOREFRONT_DATA_DIR to a new folder (or move the contents away) and run "
                            "it again.");
    const fs::path databaseFile = config.postgres() ? fs::path() : fs::absolute(config.database);
    if (!databaseFile.empty() && fs::exists(databaseFile, ec))
        throw BackupRefused("the database file " + databaseFile.string() + " already exists: restore never overwrites a database");

    std::ifstream in(source, std::ios::binary);
    if (!in) throw BackupRefused("cannot read " + source.string());
    std::optional<Poco::Zip::ZipArchive> archive;
    try {
        archive.emplace(in);
    } catch (const Poco::Exception& e) {
        throw BackupRefused(source.string() + " is not a Storefront backup (not a readable zip archive: " + e.displayText() + ")");
    }
    const auto readEntry = [&](const Poco::Zip::ZipLocalFileHeader& header, const std::function<void(const char*, std::size_t)>& sink) {
        in.clear();
        Poco::Zip::ZipInputStream zin(in, header, true);
        std::vector<char> buffer(1 << 16);
        while (zin) {
            zin.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            if (zin.gcount() > 0) sink(buffer.data(), static_cast<std::size_t>(zin.gcount()));
        }
        if (zin.bad()) throw BackupRefused("the archive is damaged: " + header.getFileName() + " cannot be read");
    };

    // The manifest.
    json manifest;
    {
        auto header = archive->findHeader(kManifestName);
        if (header == archive->headerEnd()) throw BackupRefused(source.string() + " is not a Storefront backup (no manifest.json)");
        std::string text;
        try {
            readEntry(header->second, [&](const char* data, std::size_t size) {
                if (text.size() + size > (1 << 20)) throw BackupRefused("manifest.json is too large");
                text.append(data, size);
            });
            manifest = json::parse(text);
        } catch (const BackupRefused&) {
            throw;
        } catch (const std::exception& e) {
            throw BackupRefused(source.string() + " is not a Storefront backup (manifest.json: " + e.what() + ")");
        }
    }
    const auto text = [&](const char* key) {
        auto it = manifest.find(key);
        return it != manifest.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (!manifest.is_object() || text("format") != kFormatName)
        throw BackupRefused(source.string() + " is not a Storefront backup (its manifest is not a storefront-backup one)");
    if (!manifest.contains("format_version") || !manifest["format_version"].is_number_integer() ||
        manifest["format_version"].get<int>() != kBackupFormatVersion)
        throw BackupRefused("the backup's format version is not " + std::to_string(kBackupFormatVersion) +
                            ": it was made by another release of Storefront; restore it with that release");
    std::string dialect, schemaVersion;
    std::map<std::string, FileSum> expected;
    try {
        dialect = manifest.at("database").at("dialect").get<std::string>();
        schemaVersion = manifest.at("database").at("schema_version").get<std::string>();
        for (const auto& f : manifest.at("files")) {
            const auto name = f.at("name").get<std::string>();
            if (!isAllowedEntry(name) || expected.contains(name)) throw BackupRefused("the manifest lists an unexpected file: " + name);
            expected[name] = FileSum{f.at("size").get<std::uint64_t>(), f.at("sha256").get<std::string>()};
        }
    } catch (const BackupRefused& e) {
        throw BackupRefused(source.string() + " is not a usable Storefront backup (" + e.what() + ")");
    } catch (const std::exception& e) {
        throw BackupRefused(source.string() + " is not a usable Storefront backup (manifest.json: " + e.what() + ")");
    }
    // The entries are exactly the manifest's files.
    std::set<std::string> entries;
    for (auto it = archive->headerBegin(); it != archive->headerEnd(); ++it) {
        const auto& name = it->second.getFileName();
        if (name == kManifestName) continue;
        // The zip writer adds an entry for the uploads folder itself.
        if (it->second.isDirectory() && name == std::string(kUploadsFolder) + "/") continue;
        if (!expected.contains(name))
            throw BackupRefused("the archive holds " + name + ", which its manifest does not list: it has been altered");
        entries.insert(name);
    }
    for (const auto& [name, sum] : expected)
        if (!entries.contains(name)) throw BackupRefused("the archive lacks " + name + ", which its manifest lists");
    // A file too large to be real, or more than the disk can take: refused before anything is written.
    std::uint64_t declared = 0;
    for (const auto& [name, sum] : expected) {
        if (sum.size > config.restoreMaxFileBytes)
            throw BackupRefused("the manifest declares " + name + " as " + std::to_string(sum.size) +
                                " bytes, over the limit of " + std::to_string(config.restoreMaxFileBytes) +
                                " (STOREFRONT_RESTORE_MAX_FILE_BYTES): refused, nothing was written");
        declared += sum.size;
    }
    if (const auto free = freeBytesAt(dataDir); free && declared + kRestoreHeadroomBytes > *free)
        throw BackupRefused("the backup's files take " + std::to_string(declared) + " bytes, but the disk of " +
                            dataDir.string() + " has " + std::to_string(*free) +
                            " free (with 64 MiB to spare): free some space, or restore elsewhere; nothing was written");

    // Does it fit this server?
    const bool hasDatabase = expected.contains(kDatabaseName);
    if (dialect == "sqlite") {
        if (config.postgres())
            throw BackupRefused("this backup holds a SQLite database, but STOREFRONT_DATABASE is a PostgreSQL URL: restore it "
                                "with STOREFRONT_DATABASE unset (or a SQLite file path)");
        if (!hasDatabase) throw BackupRefused("the archive lacks its SQLite database");
    } else if (dialect == "postgresql") {
        if (!config.postgres())
            throw BackupRefused("this backup was made on PostgreSQL: set STOREFRONT_DATABASE to the PostgreSQL URL the dump "
                                "is restored into");
        if (hasDatabase) throw BackupRefused("a PostgreSQL backup cannot hold a SQLite database");
    } else {
        throw BackupRefused("the backup names an unknown database engine '" + dialect + "'");
    }
    const auto& known = db::embeddedMigrations();
    if (!known.empty() && schemaVersion.substr(0, 4) > known.back().name.substr(0, 4))
        throw BackupRefused("the backup's schema (" + schemaVersion + ") is newer than this release knows (" + known.back().name +
                            "): restore it with the release that made it, or a newer one");

    // Unpack into a private folder inside the data folder, checking every file.
    const bool createdDataDir = !fs::exists(dataDir, ec);
    fs::create_directories(dataDir);
    if (createdDataDir) fs::permissions(dataDir, fs::perms::owner_all, fs::perm_options::replace);
    std::vector<fs::path> placed;
    try {
        ScratchDir scratch(dataDir, ".restore-");
        std::map<std::string, fs::path> staged;
        for (const auto& [name, sum] : expected) {
            const auto header = archive->findHeader(name);
            const auto path = scratch.path() / ("file-" + std::to_string(staged.size()));
            auto file = createPrivate(path);
            Sha256 sha;
            std::uint64_t size = 0;
            try {
                readEntry(header->second, [&](const char* data, std::size_t n) {
                    // Never past its declared size: a small archive that inflates without end (a zip
                    // bomb) stops here, having written no more than the manifest promised.
                    if (size + n > sum.size)
                        throw BackupRefused("the archive is damaged or altered: " + name + " is larger than the " +
                                            std::to_string(sum.size) + " bytes its manifest declares; nothing was restored");
                    file.write(data, static_cast<std::streamsize>(n));
                    sha.update(data, n);
                    size += n;
                });
            } catch (const BackupRefused&) {
                throw;
            } catch (const Poco::Exception& e) {
                throw BackupRefused("the archive is damaged: " + name + " (" + e.displayText() + ")");
            }
            file.close();
            if (!file) throw std::runtime_error("cannot write " + path.string());
            if (size != sum.size || sha.hex() != sum.sha256)
                throw BackupRefused("the archive is damaged or altered: " + name + " does not match its checksum in the manifest");
            staged[name] = path;
        }
        if (hasDatabase) {
            const auto integrity = integrityOf(staged.at(kDatabaseName));
            if (integrity != "ok") throw BackupRefused("the backup's database fails PRAGMA integrity_check: " + integrity);
        }

        // Into place. The data folder was empty, so nothing is replaced.
        for (const auto& [name, path] : staged) {
            fs::path destination = name == kDatabaseName ? databaseFile : dataDir / name;
            fs::create_directories(destination.parent_path());
            syncPath(path, false);
            try {
                fs::rename(path, destination);
            } catch (const fs::filesystem_error&) {
                // Another file system (a database file outside the data folder).
                fs::copy_file(path, destination);
                fs::permissions(destination, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
                syncPath(destination, false);
            }
            placed.push_back(destination);
        }
        if (fs::exists(dataDir / kUploadsFolder, ec)) syncPath(dataDir / kUploadsFolder, true);
        syncPath(dataDir, true);
    } catch (...) {
        for (const auto& path : placed) fs::remove(path, ec);
        if (fs::is_directory(dataDir / kUploadsFolder, ec) && fs::is_empty(dataDir / kUploadsFolder, ec))
            fs::remove(dataDir / kUploadsFolder, ec);
        if (createdDataDir && folderIsEmpty(dataDir)) fs::remove(dataDir, ec);
        throw;
    }

    out << "restored " << expected.size() << " file(s) from " << source.string() << " (made "
        << text("created_at") << ") into " << dataDir.string() << "\n";
    if (hasDatabase)
        out << "database: SQLite, schema " << schemaVersion << ", " << databaseFile.string() << " (integrity_check: ok)\n";
    else
        out << "database: PostgreSQL, schema " << schemaVersion << ": restore the dump made with this backup into an empty "
            << "database, then start the server:\n  pg_restore --no-owner --exit-on-error --dbname="
            << shellQuote(urlWithoutPassword(config.database)) << " " << shellQuote(dumpPathFor(source).string()) << "\n";
    const auto totp = text("totp_key");
    if (totp == "external") {
        out << "TOTP key: the backed-up server took it from STOREFRONT_TOTP_KEY; set the same value here";
        out << (config.auth.totpKey.empty() ? " (it is NOT set now: without it every user's two-factor fails)\n" : "\n");
    } else if (totp == "file" && !config.auth.totpKey.empty()) {
        out << "TOTP key: restored to " << (dataDir / "totp.key").string()
            << ", but STOREFRONT_TOTP_KEY is set and wins over it: unset it unless it holds the same key\n";
    } else if (totp == "file") {
        out << "TOTP key: restored to " << (dataDir / "totp.key").string() << "\n";
    }
}


} // namespace storefront::app

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

std::string urlWithoutPassword(const std::string& url) {
    Poco::URI uri(url);
    auto userInfo = uri.getUserInfo();
    if (auto colon = userInfo.find(':'); colon != std::string::npos) uri.setUserInfo(userInfo.substr(0, colon));
    return uri.toString();
}

// ---- backup ------------------------------------------------------------------------------------

void writeBackup(const Config& config, const std::string& archivePath, std::ostream& out, const Clock& clock) {
    if (archivePath.empty()) throw BackupRefused("--to needs a file name");
    const fs::path target = fs::absolute(archivePath);
    std::error_code ec;
    if (!fs::is_directory(target.parent_path(), ec))
        throw BackupRefused("the folder " + target.parent_path().string() + " does not exist");
    if (fs::is_directory(target, ec)) throw BackupRefused(target.string() + " is a folder; give a file name");

    ScratchDir scratch(target.parent_path(), "." + target.filename().string() + ".partial-");
    std::vector<std::pair<std::string, fs::path>> files; // archive name, file in the scratch folder
    json manifest = {{"format", kFormatName}, {"format_version", kBackupFormatVersion}, {"created_at", clock.nowTimestamp()}};

    // The database.
    std::string schemaVersion;
    if (config.postgres()) {
        auto db = db::Database::open(config.database, {}, clock);
        std::vector<std::string> versions;
        auto s = db->session();
        s << "SELECT version FROM schema_migrations", Poco::Data::Keywords::into(versions), Poco::Data::Keywords::now;
        schemaVersion = schemaVersionOf(versions);
        manifest["database"] = {{"dialect", "postgresql"}, {"schema_version", schemaVersion}, {"included", false}};
    } else {
        const fs::path source = config.database;
        if (!fs::is_regular_file(source, ec))
            throw BackupRefused("there is no SQLite database at " + source.string() +
                                " (set STOREFRONT_DATA_DIR, or STOREFRONT_DATABASE, as the server has them)");
        const auto copy = scratch.path() / kDatabaseName;
        onlineBackup(source, copy);
        SqliteHandle db;
        openSqlite(db, copy, SQLITE_OPEN_READONLY);
        schemaVersion = schemaVersionOf(sqliteTextColumn(db.db, "SELECT version FROM schema_migrations"));
        files.emplace_back(kDatabaseName, copy);
        manifest["database"] = {{"dialect", "sqlite"}, {"schema_version", schemaVersion}, {"included", true}};
    }

    // Key files and uploads of the data folder, copied first so that each is archived exactly as hashed.
    const fs::path dataDir = config.dataDir;
    const fs::path databaseFile = config.postgres() ? fs::path() : fs::absolute(config.database);
    bool keyFile = false;
    for (const auto& [name, path] : dataFolderFiles(dataDir)) {
        if (!databaseFile.empty() && fs::absolute(path) == databaseFile) continue;
        const auto copy = scratch.path() / ("file-" + std::to_string(files.size()));
        fs::copy_file(path, copy);
        files.emplace_back(name, copy);
        keyFile |= name == "totp.key";
    }
    const bool externalKey = !config.auth.totpKey.empty();
    manifest["totp_key"] = externalKey ? "external" : keyFile ? "file" : "none";

    manifest["files"] = json::array();
    std::uint64_t total = 0;
    for (const auto& [name, path] : files) {
        const auto sum = sumOf(path);
        manifest["files"].push_back({{"name", name}, {"size", sum.size}, {"sha256", sum.sha256}});
        total += sum.size;
    }

    // The archive, then one rename: FILE is either the previous file or the whole new archive.
    const auto partial = scratch.path() / "archive.zip";
    {
        auto stream = createPrivate(partial);
        Poco::Zip::Compress zip(stream, true, true);
        const Poco::DateTime now;
        std::istringstream manifestText(manifest.dump(2) + "\n");
        zip.addFile(manifestText, now, Poco::Path(kManifestName, Poco::Path::PATH_UNIX), Poco::Zip::ZipCommon::CM_DEFLATE,
                    Poco::Zip::ZipCommon::CL_NORMAL);
        for (const auto& [name, path] : files) {
            std::ifstream in(path, std::ios::binary);
            if (!in) throw std::runtime_error("cannot read " + path.string());
            zip.addFile(in, now, Poco::Path(name, Poco::Path::PATH_UNIX), Poco::Zip::ZipCommon::CM_DEFLATE,
                        Poco::Zip::ZipCommon::CL_NORMAL);
        }
        zip.close();
        stream.close();
        if (!stream) throw std::runtime_error("cannot write " + partial.string());
    }
    syncPath(partial, false);
    fs::rename(partial, target);
    syncPath(target.parent_path(), true);

    out << "backup written: " << target.string() << " (" << fs::file_size(target) << " bytes; " << files.size()
        << " file(s), " << total << " bytes before compression)\n";
    if (config.postgres()) {
        const auto url = urlWithoutPassword(config.database);
        const auto dump = dumpPathFor(target);
        out << "database: PostgreSQL, schema " << schemaVersion << ": NOT in this archive. Dump it now, to keep with the archive:\n"
            << "  pg_dump --format=custom --file=" << shellQuote(dump.string()) << " " << shellQuote(url) << "\n"
            << "(the password comes from PGPASSWORD or ~/.pgpass; restore with pg_restore, docs/operations.md \"Backups\")\n";
    } else {
        out << "database: SQLite, schema " << schemaVersion << ", copied with SQLite's online backup\n";
    }
    if (externalKey)
        out << "TOTP key: set in STOREFRONT_TOTP_KEY, so NOT in this archive: keep that value with the settings; "
               "without it every user's two-factor is lost\n";
    else if (keyFile)
        out << "TOTP key: " << (dataDir / "totp.key").string() << " is in the archive; keep the archive as secret as the key\n";
    else
        out << "TOTP key: none yet (the server creates " << (dataDir / "totp.key").string() << " on its first start)\n";
}


} // namespace storefront::app

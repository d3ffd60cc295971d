#include "app/backup.h"

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
#include <sodium.h>
#include <sqlite3.h>

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

namespace {

constexpr const char* kFormatName = "storefront-backup";
constexpr const char* kManifestName = "manifest.json";
constexpr const char* kDatabaseName = "storefront.db";
constexpr const char* kUploadsFolder = "uploads";

// ---- files -------------------------------------------------------------------------------------

std::string hexOf(const unsigned char* bytes, std::size_t size) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += hex[bytes[i] >> 4];
        out += hex[bytes[i] & 15];
    }
    return out;
}

class Sha256 {
public:
    Sha256() { crypto_hash_sha256_init(&state_); }
    void update(const char* data, std::size_t size) {
        crypto_hash_sha256_update(&state_, reinterpret_cast<const unsigned char*>(data), size);
    }
    std::string hex() {
        unsigned char digest[crypto_hash_sha256_BYTES];
        crypto_hash_sha256_final(&state_, digest);
        return hexOf(digest, sizeof digest);
    }

private:
    crypto_hash_sha256_state state_;
};

struct FileSum {
    std::uint64_t size = 0;
    std::string sha256;
};

FileSum sumOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    Sha256 sha;
    FileSum sum;
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        sha.update(buffer.data(), got);
        sum.size += got;
    }
    if (in.bad()) throw std::runtime_error("cannot read " + path.string());
    sum.sha256 = sha.hex();
    return sum;
}

// Creates `path` for writing with mode 0600 (never readable by others, even for a moment).
std::ofstream createPrivate(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
    ::close(fd);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    return out;
}

void syncPath(const fs::path& path, bool directory) {
    const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// A new private (0700) folder `<near>/<prefix>XXXXXX`, removed with everything in it when this ends.
class ScratchDir {
public:
    ScratchDir(const fs::path& near, const std::string& prefix) {
        std::string pattern = (near / (prefix + "XXXXXX")).string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder in " + near.string() + ": " + std::strerror(errno));
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// ---- SQLite ------------------------------------------------------------------------------------

struct SqliteHandle {
    sqlite3* db = nullptr;
    ~SqliteHandle() {
        if (db) sqlite3_close_v2(db);
    }
};

void openSqlite(SqliteHandle& handle, const fs::path& path, int flags) {
    if (sqlite3_open_v2(path.c_str(), &handle.db, flags, nullptr) != SQLITE_OK)
        throw std::runtime_error("cannot open the SQLite database " + path.string() + ": " +
                                 (handle.db ? sqlite3_errmsg(handle.db) : "out of memory"));
    sqlite3_busy_timeout(handle.db, 10000);
}

void execSqlite(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : sqlite3_errmsg(db);
        sqlite3_free(error);
        throw std::runtime_error(sql + ": " + message);
    }
}

std::vector<std::string> sqliteTextColumn(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK)
        throw std::runtime_error(sql + ": " + sqlite3_errmsg(db));
    std::vector<std::string> out;
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        const auto* text = sqlite3_column_text(statement, 0);
        out.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
    }
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE) throw std::runtime_error(sql + ": " + sqlite3_errmsg(db));
    return out;
}

// A consistent copy of the live database at `source` into `target`, made with SQLite's online
// backup in one step: it reads one snapshot (WAL: writers carry on meanwhile) and copies every page.
// The copy is a single self-contained file (rollback journal mode, nothing in a -wal file).
void onlineBackup(const fs::path& source, const fs::path& target) {
    SqliteHandle from, to;
    // Read-write without create: a missing file is an error, and a WAL database needs its -shm.
    openSqlite(from, source, SQLITE_OPEN_READWRITE);
    openSqlite(to, target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3_backup* backup = sqlite3_backup_init(to.db, "main", from.db, "main");
    if (!backup) throw std::runtime_error(std::string("cannot start the SQLite backup: ") + sqlite3_errmsg(to.db));
    int rc;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while ((rc = sqlite3_backup_step(backup, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED) {
        if (std::chrono::steady_clock::now() > deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE)
        throw std::runtime_error(std::string("the SQLite backup failed: ") + sqlite3_errstr(rc));
    execSqlite(to.db, "PRAGMA journal_mode = DELETE");
}

std::string integrityOf(const fs::path& path) {
    SqliteHandle db;
    openSqlite(db, path, SQLITE_OPEN_READONLY);
    auto rows = sqliteTextColumn(db.db, "PRAGMA integrity_check");
    std::string out;
    for (const auto& row : rows) out += (out.empty() ? "" : "; ") + row;
    return out;
}

// The newest numbered migration among schema_migrations' versions (seed and one-off rows left out).
std::string schemaVersionOf(const std::vector<std::string>& versions) {
    std::string newest;
    for (const auto& v : versions) {
        const bool numbered = v.size() > 5 && std::all_of(v.begin(), v.begin() + 4, [](char c) { return c >= '0' && c <= '9'; }) && v[4] == '_';
        if (numbered && v > newest) newest = v;
    }
    return newest;
}

// ---- names -------------------------------------------------------------------------------------

bool isKeyFileName(const std::string& name) {
    return name == "totp.key" || name.ends_with(".key") || name.ends_with(".pem");
}

// What an archive may hold besides the manifest: the database, a key file at the top, an upload.
bool isAllowedEntry(const std::string& name) {
    if (name.empty() || name.size() > 255 || name.find('\\') != std::string::npos || name.find('\0') != std::string::npos)
        return false;
    if (name == kDatabaseName) return true;
    const auto slash = name.find('/');
    if (slash == std::string::npos) return isKeyFileName(name) && name[0] != '.';
    const std::string folder = name.substr(0, slash), file = name.substr(slash + 1);
    return folder == kUploadsFolder && !file.empty() && file[0] != '.' && file.find('/') == std::string::npos;
}

std::string shellQuote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

fs::path dumpPathFor(const fs::path& archive) {
    fs::path dump = archive;
    if (dump.extension() == ".zip") dump.replace_extension(".pgdump");
    else dump += ".pgdump";
    return dump;
}

bool folderIsEmpty(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return true;
    if (!fs::is_directory(dir, ec)) return false;
    return fs::directory_iterator(dir) == fs::directory_iterator();
}

// The data folder's key files and uploads, by archive name.
std::vector<std::pair<std::string, fs::path>> dataFolderFiles(const fs::path& dataDir) {
    std::vector<std::pair<std::string, fs::path>> out;
    std::error_code ec;
    if (dataDir.empty() || !fs::is_directory(dataDir, ec)) return out;
    for (const auto& entry : fs::directory_iterator(dataDir)) {
        const auto name = entry.path().filename().string();
        if (entry.is_regular_file() && !entry.is_symlink() && isKeyFileName(name) && isAllowedEntry(name))
            out.emplace_back(name, entry.path());
    }
    const auto uploads = dataDir / kUploadsFolder;
    if (fs::is_directory(uploads, ec)) {
        for (const auto& entry : fs::directory_iterator(uploads)) {
            const auto name = std::string(kUploadsFolder) + "/" + entry.path().filename().string();
            if (entry.is_regular_file() && !entry.is_symlink() && isAllowedEntry(name)) out.emplace_back(name, entry.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string nowUtc() { return db::nowTimestamp(); }

} // namespace

std::string urlWithoutPassword(const std::string& url) {
    Poco::URI uri(url);
    auto userInfo = uri.getUserInfo();
    if (auto colon = userInfo.find(':'); colon != std::string::npos) uri.setUserInfo(userInfo.substr(0, colon));
    return uri.toString();
}

// ---- backup ------------------------------------------------------------------------------------

void writeBackup(const Config& config, const std::string& archivePath, std::ostream& out) {
    if (archivePath.empty()) throw BackupRefused("--to needs a file name");
    const fs::path target = fs::absolute(archivePath);
    std::error_code ec;
    if (!fs::is_directory(target.parent_path(), ec))
        throw BackupRefused("the folder " + target.parent_path().string() + " does not exist");
    if (fs::is_directory(target, ec)) throw BackupRefused(target.string() + " is a folder; give a file name");

    ScratchDir scratch(target.parent_path(), "." + target.filename().string() + ".partial-");
    std::vector<std::pair<std::string, fs::path>> files; // archive name, file in the scratch folder
    json manifest = {{"format", kFormatName}, {"format_version", kBackupFormatVersion}, {"created_at", nowUtc()}};

    // The database.
    std::string schemaVersion;
    if (config.postgres()) {
        auto db = db::Database::open(config.database);
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

// ---- restore -----------------------------------------------------------------------------------

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

#pragma once
// The backup archive's pieces shared by `storefront backup` (app/backup.cpp) and `storefront
// restore` (app/restore.cpp): its entry names, file checksums, private files and folders, and the
// SQLite copy and checks. The archive's layout is described in app/backup.h.
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <sodium.h>

namespace storefront::app::archive {

namespace fs = std::filesystem;

inline constexpr const char* kFormatName = "storefront-backup";
inline constexpr const char* kManifestName = "manifest.json";
inline constexpr const char* kDatabaseName = "storefront.db";
inline constexpr const char* kUploadsFolder = "uploads";

// ---- files -------------------------------------------------------------------------------------

// A running SHA-256, as lower-case hex.
class Sha256 {
public:
    Sha256() { crypto_hash_sha256_init(&state_); }
    void update(const char* data, std::size_t size) {
        crypto_hash_sha256_update(&state_, reinterpret_cast<const unsigned char*>(data), size);
    }
    std::string hex();

private:
    crypto_hash_sha256_state state_;
};

struct FileSum {
    std::uint64_t size = 0;
    std::string sha256;
};

FileSum sumOf(const fs::path& path);

// Creates `path` for writing with mode 0600 (never readable by others, even for a moment).
std::ofstream createPrivate(const fs::path& path);

void syncPath(const fs::path& path, bool directory);

// A new private (0700) folder `<near>/<prefix>XXXXXX`, removed with everything in it when this ends.
class ScratchDir {
public:
    ScratchDir(const fs::path& near, const std::string& prefix);
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// ---- SQLite ------------------------------------------------------------------------------------

struct SqliteHandle {
    sqlite3* db = nullptr;
    SqliteHandle() = default;
    SqliteHandle(const SqliteHandle&) = delete;
    SqliteHandle& operator=(const SqliteHandle&) = delete;
    ~SqliteHandle() {
        if (db) sqlite3_close_v2(db);
    }
};

void openSqlite(SqliteHandle& handle, const fs::path& path, int flags);
void execSqlite(sqlite3* db, const std::string& sql);
std::vector<std::string> sqliteTextColumn(sqlite3* db, const std::string& sql);

// A consistent copy of the live database at `source` into `target`, made with SQLite's online
// backup in one step: it reads one snapshot (WAL: writers carry on meanwhile) and copies every page.
// The copy is a single self-contained file (rollback journal mode, nothing in a -wal file).
void onlineBackup(const fs::path& source, const fs::path& target);

// PRAGMA integrity_check's rows, joined ("ok" when sound).
std::string integrityOf(const fs::path& path);

// The newest numbered migration among schema_migrations' versions (seed and one-off rows left out).
std::string schemaVersionOf(const std::vector<std::string>& versions);

// ---- names -------------------------------------------------------------------------------------

bool isKeyFileName(const std::string& name);

// What an archive may hold besides the manifest: the database, a key file at the top, an upload.
bool isAllowedEntry(const std::string& name);

std::string shellQuote(const std::string& text);

// Where the PostgreSQL dump beside `archive` goes (".zip" becomes ".pgdump").
fs::path dumpPathFor(const fs::path& archive);

bool folderIsEmpty(const fs::path& dir);

// The data folder's key files and uploads, by archive name.
std::vector<std::pair<std::string, fs::path>> dataFolderFiles(const fs::path& dataDir);

} // namespace storefront::app::archive

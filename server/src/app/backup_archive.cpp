#include "app/backup_archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace storefront::app::archive {

namespace {

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

} // namespace

std::string Sha256::hex() {
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&state_, digest);
    return hexOf(digest, sizeof digest);
}

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

ScratchDir::ScratchDir(const fs::path& near, const std::string& prefix) {
    std::string pattern = (near / (prefix + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder in " + near.string() + ": " + std::strerror(errno));
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

// ---- SQLite ------------------------------------------------------------------------------------

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


} // namespace storefront::app::archive

#pragma once
// `storefront backup --to FILE` and `storefront restore --from FILE` (docs/operations.md, "Backups"):
// app/backup.cpp writes an archive, app/restore.cpp puts one back, app/backup_archive.h holds what
// both use.
//
// One archive (a zip) holds everything a restore needs besides the settings:
//   manifest.json   format, when, the database's engine and schema version, and every file with
//                   its size and SHA-256
//   storefront.db   SQLite: a consistent copy made with SQLite's online backup while the server
//                   keeps serving (on PostgreSQL the database is dumped with pg_dump instead; the
//                   command is printed)
//   totp.key, *.key, *.pem
//                   key files of the data folder (the TOTP sealing key: without it every user's
//                   two-factor is lost). A key given in STOREFRONT_TOTP_KEY is not written to disk:
//                   the manifest records it as external and the operator keeps it with the settings.
//   uploads/...     uploaded images still kept in the data folder
// The access-token signing keys live in the database and travel with it.
#include "app/config.h"
#include "common/clock.h"

#include <ostream>
#include <stdexcept>
#include <string>

namespace storefront::app {

// A backup or restore that must not go ahead: the target is not empty, the archive is damaged or
// not a Storefront backup, or it does not fit this server's database. Nothing was changed.
class BackupRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr int kBackupFormatVersion = 1;

// Writes the archive to `archivePath` (through a temporary file renamed at the end, mode 0600) and
// reports on `out` what it holds and what the operator must keep besides it.
void writeBackup(const Config& config, const std::string& archivePath, std::ostream& out, const Clock& clock);

// Restores an archive into the configured data folder, which must be empty or absent (and, on
// SQLite, the configured database file absent). Every file is checked against the manifest before
// anything is put in place; on any failure nothing is left behind.
void restoreBackup(const Config& config, const std::string& archivePath, std::ostream& out);

// A postgresql:// URL without its password, for commands shown to the operator.
std::string urlWithoutPassword(const std::string& url);

} // namespace storefront::app

#pragma once
#include "db/database.h"
#include "db/embedded_sql.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::db {

// Splits a migration into statements at each `;` that ends a line; `--` comment lines are dropped.
// A `CREATE TRIGGER` (SQLite-only files) ends only at a line ending in `END;`, so the statements
// of its body may end lines too.
std::vector<std::string> splitStatements(std::string_view sqlText);

// Whether a migration file runs on this engine: `NNNN_name.postgres.sql` only on PostgreSQL,
// `NNNN_name.sqlite.sql` only on SQLite, every other `NNNN_name.sql` on both (docs/database.md,
// "Engine-specific migrations").
bool migrationAppliesTo(std::string_view fileName, Dialect dialect);

// An applied migration whose file is no longer the one the database recorded.
class MigrationChanged : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "sha256:<hex>" of a migration's text, carriage returns left out.
std::string migrationChecksum(std::string_view sqlText);

// Applies every migration not yet recorded in schema_migrations, each file in one transaction,
// recording its checksum. Safe when several servers start at once (PostgreSQL advisory lock;
// SQLite's write lock). Throws MigrationChanged, naming the file, when an applied migration's
// recorded checksum differs from this build's file; fills the checksums of rows that have none
// (applied before checksums were recorded). Returns the names of the migrations applied.
std::vector<std::string> migrate(Database& db, const std::vector<EmbeddedSql>& migrations = embeddedMigrations());

// Runs `write` once in a database's life under the name `version` (recorded in
// schema_migrations, so it never runs again, even when what it wrote was later deleted). Safe when
// several servers start at once. Returns true when it ran. The local demo's rows use it.
bool runOnce(Database& db, const std::string& version, const std::function<void()>& write);

// Applies the seed files when the products table is empty. Returns true when it seeded.
bool seedIfEmpty(Database& db, const std::vector<EmbeddedSql>& seeds = embeddedSeeds());

} // namespace storefront::db

#include "db/database.h"
#include "db/dialect.h"
#include "db/migrations.h"
#include "db/postgres_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

using namespace storefront::db;

TEST(Database, NumbersPlaceholdersOutsideQuotedText) {
    EXPECT_EQ(numberPlaceholders("SELECT * FROM t WHERE a = ? AND b = ?"), "SELECT * FROM t WHERE a = $1 AND b = $2");
    EXPECT_EQ(numberPlaceholders("SELECT '?' , \"we?rd\" FROM t WHERE a = ?"),
              "SELECT '?' , \"we?rd\" FROM t WHERE a = $1");
    EXPECT_EQ(numberPlaceholders("no params"), "no params");
}

TEST(Database, PostgresUrlBecomesAConnectionString) {
    EXPECT_EQ(postgresConnectionString("postgresql://postgres@127.0.0.1:5433/storefront_test"),
              "host='127.0.0.1' port=5433 user='postgres' dbname='storefront_test'");
    EXPECT_EQ(postgresConnectionString("postgres://app:p%40ss'w@db.internal/shop?sslmode=require"),
              "host='db.internal' port=5432 user='app' password='p@ss\\'w' dbname='shop' sslmode='require'");
    EXPECT_THROW(postgresConnectionString("mysql://x"), std::invalid_argument);
}

TEST(Database, TimestampsFromBothEnginesNormaliseToIsoUtc) {
    EXPECT_EQ(normalizeTimestamp("2026-11-23T09:26:51.123Z"), "2026-11-23T09:26:51.123Z");
    EXPECT_EQ(normalizeTimestamp("2026-11-23 09:26:51.123+00"), "2026-11-23T09:26:51.123Z");
    EXPECT_EQ(normalizeTimestamp("2026-11-23 22:26:51.5+13"), "2026-11-23T09:26:51.500Z");
    EXPECT_EQ(normalizeTimestamp("2026-11-23 09:26:51+00"), "2026-11-23T09:26:51.000Z");
    EXPECT_EQ(normalizeTimestamp(""), "");
}

TEST(Database, NowTimestampHasTheStoredShape) {
    auto t = storefront::systemClock().nowTimestamp();
    ASSERT_EQ(t.size(), 24u);
    EXPECT_EQ(t[10], 'T');
    EXPECT_EQ(t.back(), 'Z');
}

TEST(Database, NewIdsAreRandomUuids) {
    auto a = newId(), b = newId();
    EXPECT_EQ(a.size(), 36u);
    EXPECT_EQ(a[14], '4');
    EXPECT_NE(a, b);
}

TEST(Migrations, SplitsStatementsAtLineEndingSemicolons) {
    auto parts = splitStatements(
        "-- header\nCREATE TABLE a (\n  x TEXT -- trailing; not an end\n);\n\nINSERT INTO a VALUES ('a;b');\n");
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0], "CREATE TABLE a (\nx TEXT -- trailing; not an end\n)");
    EXPECT_EQ(parts[1], "INSERT INTO a VALUES ('a;b')");
}

TEST(Migrations, KeepsATriggerTogetherUntilItsEnd) {
    auto parts = splitStatements("CREATE TABLE t (a TEXT);\n"
                                 "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN\n"
                                 "INSERT INTO u VALUES (new.a);\n"
                                 "INSERT INTO v VALUES (new.a); END;\n"
                                 "create trigger t_ad after delete on t begin\n"
                                 "delete from u where a = old.a;\n"
                                 "end;\n"
                                 "DROP TABLE x;\n");
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[1], "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN\nINSERT INTO u VALUES (new.a);\nINSERT INTO v VALUES (new.a); END");
    EXPECT_EQ(parts[2], "create trigger t_ad after delete on t begin\ndelete from u where a = old.a;\nend");
    EXPECT_EQ(parts[3], "DROP TABLE x");
}

TEST(Migrations, KeepsADollarQuotedFunctionBodyTogether) {
    auto parts = splitStatements("CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                                 "BEGIN\n"
                                 "    UPDATE c SET n = n + 1;\n"
                                 "    RETURN NULL;\n"
                                 "END\n"
                                 "$$;\n"
                                 "CREATE TRIGGER t_ai AFTER INSERT ON t\n"
                                 "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION f();\n"
                                 "DROP TABLE x;\n");
    ASSERT_EQ(parts.size(), 3u) << (parts.empty() ? "" : parts.back());
    EXPECT_EQ(parts[0], "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\nUPDATE c SET n = n + 1;\nRETURN NULL;\nEND\n$$");
    EXPECT_EQ(parts[1], "CREATE TRIGGER t_ai AFTER INSERT ON t\nREFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION f()");
    EXPECT_EQ(parts[2], "DROP TABLE x");
}

TEST(Migrations, EngineSuffixesChooseWhereAFileRuns) {
    EXPECT_TRUE(migrationAppliesTo("0011_search.sqlite.sql", Dialect::SQLite));
    EXPECT_FALSE(migrationAppliesTo("0011_search.sqlite.sql", Dialect::PostgreSQL));
    EXPECT_TRUE(migrationAppliesTo("0011_search.postgres.sql", Dialect::PostgreSQL));
    EXPECT_FALSE(migrationAppliesTo("0011_search.postgres.sql", Dialect::SQLite));
    EXPECT_TRUE(migrationAppliesTo("0010_companion.sql", Dialect::SQLite));
    EXPECT_TRUE(migrationAppliesTo("0010_companion.sql", Dialect::PostgreSQL));
    // Every engine-specific file has its other half under the same number and name.
    for (const auto& m : embeddedMigrations()) {
        for (const auto& [mine, other] : {std::pair{".sqlite.sql", ".postgres.sql"}, std::pair{".postgres.sql", ".sqlite.sql"}}) {
            if (!m.name.ends_with(mine)) continue;
            const auto twin = m.name.substr(0, m.name.size() - std::string(mine).size()) + other;
            bool found = false;
            for (const auto& n : embeddedMigrations()) found = found || n.name == twin;
            EXPECT_TRUE(found) << m.name << " has no " << twin;
        }
    }
}

TEST(Migrations, EmbeddedMigrationsAreNumberedAndOrdered) {
    const auto& files = embeddedMigrations();
    ASSERT_FALSE(files.empty());
    for (std::size_t i = 0; i < files.size(); ++i) {
        EXPECT_TRUE(files[i].name.ends_with(".sql"));
        if (i > 0) {
            EXPECT_LT(files[i - 1].name, files[i].name);
        }
        EXPECT_FALSE(splitStatements(files[i].text).empty()) << files[i].name;
    }
    EXPECT_FALSE(embeddedSeeds().empty());
}

TEST(Migrations, ApplyOnceOnAFreshSqliteDatabaseAndSeedOnce) {
    auto path = std::string(::testing::TempDir()) + "/migrations-" + newId() + ".db";
    {
        auto db = Database::open(path);
        auto applied = migrate(*db);
        std::size_t forSqlite = 0;
        for (const auto& m : embeddedMigrations()) forSqlite += migrationAppliesTo(m.name, Dialect::SQLite) ? 1 : 0;
        EXPECT_EQ(applied.size(), forSqlite);
        EXPECT_LT(forSqlite, embeddedMigrations().size());
        EXPECT_TRUE(migrate(*db).empty());
        EXPECT_TRUE(seedIfEmpty(*db));
        EXPECT_FALSE(seedIfEmpty(*db));
        auto s = db->session();
        int products = 0;
        s << "SELECT COUNT(*) FROM products", Poco::Data::Keywords::into(products), Poco::Data::Keywords::now;
        EXPECT_GE(products, 5);
        // Emptying the catalogue does not bring the seed back.
        s << "DELETE FROM pricing_plans", Poco::Data::Keywords::now;
        s << "DELETE FROM products", Poco::Data::Keywords::now;
    }
    auto db = Database::open(path);
    EXPECT_FALSE(seedIfEmpty(*db));
}

namespace {

// A new SQLite file's path in the test's temporary folder, removed (with its -wal and -shm
// files) when the test ends: declare it before the Database that opens it.
struct ScratchSqlite {
    std::string path;
    explicit ScratchSqlite(const std::string& prefix)
        : path(std::string(::testing::TempDir()) + "/" + prefix + "-" + newId() + ".db") {}
    ~ScratchSqlite() {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
    }
    ScratchSqlite(const ScratchSqlite&) = delete;
    ScratchSqlite& operator=(const ScratchSqlite&) = delete;
};

std::map<std::string, std::string> recordedChecksums(Database& db) {
    std::vector<std::string> versions, checksums;
    auto s = db.session();
    s << "SELECT version, COALESCE(checksum, '') FROM schema_migrations", Poco::Data::Keywords::into(versions),
        Poco::Data::Keywords::into(checksums), Poco::Data::Keywords::now;
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < versions.size(); ++i) out[versions[i]] = checksums[i];
    return out;
}

} // namespace

TEST(Migrations, ChecksumIsSha256OfTheTextWhateverItsLineEndings) {
    EXPECT_EQ(migrationChecksum(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(migrationChecksum("CREATE TABLE t (a INT);\r\n"), migrationChecksum("CREATE TABLE t (a INT);\n"));
    EXPECT_NE(migrationChecksum("CREATE TABLE t (a INT);\n"), migrationChecksum("CREATE TABLE t (b INT);\n"));
}

TEST(Migrations, EveryAppliedMigrationIsRecordedWithItsChecksum) {
    const ScratchSqlite file("checksums");
    auto db = Database::open(file.path);
    migrate(*db);
    const auto recorded = recordedChecksums(*db);
    for (const auto& m : embeddedMigrations()) {
        if (!migrationAppliesTo(m.name, Dialect::SQLite)) continue;
        ASSERT_TRUE(recorded.contains(m.name)) << m.name;
        EXPECT_EQ(recorded.at(m.name), migrationChecksum(m.text)) << m.name;
    }
}

TEST(Migrations, AChangedAppliedMigrationStopsStartUpNamingTheFile) {
    const ScratchSqlite file("changed");
    const auto& path = file.path;
    auto db = Database::open(path);
    migrate(*db);
    // The file as a later build carries it, edited after release.
    auto edited = embeddedMigrations();
    edited.at(4).text += "\nCREATE INDEX users_sneaky ON users (created_at);\n";
    const std::string name = edited.at(4).name;
    try {
        migrate(*db, edited);
        FAIL() << "an edited applied migration was accepted";
    } catch (const MigrationChanged& e) {
        EXPECT_NE(std::string(e.what()).find("migration " + name + " was changed"), std::string::npos) << e.what();
    }
    // Nothing of the edited file ran.
    int sneaky = 0;
    auto s = db->session();
    s << "SELECT COUNT(*) FROM sqlite_master WHERE name = 'users_sneaky'", Poco::Data::Keywords::into(sneaky),
        Poco::Data::Keywords::now;
    EXPECT_EQ(sneaky, 0);

    // A recorded checksum altered in the database stops it the same way.
    s << "UPDATE schema_migrations SET checksum = 'sha256:00' WHERE version = '0003_enterprise.sql'",
        Poco::Data::Keywords::now;
    EXPECT_THROW(
        {
            try {
                migrate(*db);
            } catch (const MigrationChanged& e) {
                EXPECT_NE(std::string(e.what()).find("0003_enterprise.sql"), std::string::npos) << e.what();
                throw;
            }
        },
        MigrationChanged);
}

TEST(Migrations, ADatabaseAppliedBeforeChecksumsGetsThemOnItsNextStart) {
    const ScratchSqlite file("before-checksums");
    auto db = Database::open(file.path);
    // The migrations of the release before checksums were recorded.
    std::vector<EmbeddedSql> before;
    for (const auto& m : embeddedMigrations())
        if (m.name < "0013_migration_checksums.sql") before.push_back(m);
    ASSERT_LT(before.size(), embeddedMigrations().size());
    migrate(*db, before);
    {
        int column = 0;
        auto s = db->session();
        s << "SELECT COUNT(*) FROM pragma_table_info('schema_migrations') WHERE name = 'checksum'",
            Poco::Data::Keywords::into(column), Poco::Data::Keywords::now;
        ASSERT_EQ(column, 0);
    }
    // The new release starts: it adds the column and fills every applied migration's checksum.
    auto applied = migrate(*db);
    EXPECT_NE(std::find(applied.begin(), applied.end(), "0013_migration_checksums.sql"), applied.end());
    for (const auto& [version, checksum] : recordedChecksums(*db))
        if (!version.starts_with("seed/")) {
            EXPECT_TRUE(checksum.starts_with("sha256:")) << version;
        }

    // The previous release, still serving during a rolling deploy, records a row without one: accepted.
    auto s = db->session();
    s << "INSERT INTO schema_migrations (version, applied_at) VALUES ('0001_core.sql.old', '2026-01-01T00:00:00.000Z')",
        Poco::Data::Keywords::now;
    s << "UPDATE schema_migrations SET checksum = NULL WHERE version = '0002_commerce.sql'", Poco::Data::Keywords::now;
    EXPECT_NO_THROW(migrate(*db));
    EXPECT_EQ(recordedChecksums(*db).at("0002_commerce.sql"), migrationChecksum(embeddedMigrations().at(1).text));
}

TEST(Database, TimestampAfterKeepsTheStoredShapeAndOrders) {
    auto past = storefront::systemClock().timestampAfter(-60), now = storefront::systemClock().nowTimestamp(), later = storefront::systemClock().timestampAfter(120);
    EXPECT_EQ(later.size(), 24u);
    EXPECT_LT(past, now); // the stored text sorts in time order on SQLite
    EXPECT_LT(now, later);
}

TEST(PostgresSession, KeepsDataStatementsAndRunsTheRestAsSimpleQueries) {
    EXPECT_TRUE(isKeptStatement("SELECT 1"));
    EXPECT_TRUE(isKeptStatement("  select * from t"));
    EXPECT_TRUE(isKeptStatement("-- a comment\nINSERT INTO t VALUES ($1)"));
    EXPECT_TRUE(isKeptStatement("(SELECT a FROM t) UNION (SELECT b FROM u)"));
    EXPECT_TRUE(isKeptStatement("WITH x AS (SELECT 1) UPDATE t SET a = 1"));
    EXPECT_TRUE(isKeptStatement("DELETE FROM t"));
    EXPECT_TRUE(isKeptStatement(std::string(kPlanPerCall) + "SELECT COUNT(*) FROM t WHERE a LIKE $1"));
    EXPECT_FALSE(isKeptStatement("BEGIN"));
    EXPECT_FALSE(isKeptStatement("SET TIME ZONE 'UTC'"));
    EXPECT_FALSE(isKeptStatement("CREATE TABLE t (a TEXT)"));
    EXPECT_FALSE(isKeptStatement("LOCK TABLE t IN EXCLUSIVE MODE"));
    EXPECT_FALSE(isKeptStatement(""));
    EXPECT_TRUE(isSchemaChange("ALTER TABLE t ADD COLUMN b TEXT"));
    EXPECT_TRUE(isSchemaChange("drop table t"));
    EXPECT_TRUE(isSchemaChange("CREATE INDEX i ON t (a)"));
    EXPECT_FALSE(isSchemaChange("SELECT 1"));
    EXPECT_FALSE(isSchemaChange("BEGIN"));
}

TEST(Dialect, LowerLikeDropsLowerBeforeLikeOnSqliteOnly) {
    const std::string sql = "(LOWER(c.site_location) LIKE ? ESCAPE '\\' OR COALESCE(LOWER(sw.email) LIKE ?, FALSE) "
                            "OR LOWER(c.a) = ? OR LOWER(COALESCE(x, y)) LIKE ?)";
    EXPECT_EQ(lowerLike(false, sql), sql);
    EXPECT_EQ(lowerLike(true, sql), "(c.site_location LIKE ? ESCAPE '\\' OR COALESCE(sw.email LIKE ?, FALSE) "
                                    "OR LOWER(c.a) = ? OR LOWER(COALESCE(x, y)) LIKE ?)");
    EXPECT_EQ(lowerLike(true, "no like here"), "no like here");
}

// The rewrite is only right if SQLite's LIKE matches exactly the rows LOWER(col) LIKE matches, for
// any text and any lower-cased pattern (db::likePattern lowers ASCII only, as SQLite's LOWER does).
TEST(Dialect, OnSqliteColLikeMatchesTheRowsOfLowerColLike) {
    auto db = Database::open(std::string(::testing::TempDir()) + "/dialect-" + newId() + ".db");
    auto s = db->session();
    s << "CREATE TABLE t (v TEXT)", Poco::Data::Keywords::now;
    const std::vector<std::string> values = {"Queen Street", "QUEEN", "queen", "\u014ctautahi", "\u014dtautahi",
                                             "T\u0101ne", "T\u0100NE", "Stra\u00dfe", "STRASSE", "100%_Sure", "100%x",
                                             "back\\slash", "\u0130stanbul", "istanbul", "WW-2026-000777", ""};
    for (auto v : values) s << "INSERT INTO t (v) VALUES (?)", Poco::Data::Keywords::use(v), Poco::Data::Keywords::now;
    s << "INSERT INTO t (v) VALUES (NULL)", Poco::Data::Keywords::now;
    for (const std::string pattern : {"%queen%", "%\u014d%", "%\u014c%", "%t\u0101n%", "%\u0101%", "%stra\u00df%", "%ss%",
                                      "%100\\%\\_%", "%\\\\%", "%i%", "%7%", "%"}) {
        std::vector<int> lowered, plain;
        auto p = pattern;
        s << lowerLike(false, "SELECT rowid FROM t WHERE LOWER(v) LIKE ? ESCAPE '\\' ORDER BY rowid"),
            Poco::Data::Keywords::use(p), Poco::Data::Keywords::into(lowered), Poco::Data::Keywords::now;
        s << lowerLike(true, "SELECT rowid FROM t WHERE LOWER(v) LIKE ? ESCAPE '\\' ORDER BY rowid"),
            Poco::Data::Keywords::use(p), Poco::Data::Keywords::into(plain), Poco::Data::Keywords::now;
        EXPECT_EQ(plain, lowered) << pattern;
        EXPECT_FALSE(lowered.empty() && pattern == "%queen%");
    }
}

// The database layer against the real engine of this run (SQLite, or PostgreSQL through the
// connector that keeps prepared statements per connection, db/postgres_session.cpp).
#include "db/database.h"
#include "db/dialect.h"
#include "db/migrations.h"
#include "db/row.h"
#include "harness.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/Nullable.h>
#include <gtest/gtest.h>

#include <limits>

using namespace Poco::Data::Keywords;
using storefront::db::Database;
using storefront::db::Dialect;
using testing_support::env;
using testing_support::unique;

namespace {

// A scratch table of its own, dropped at the end of the test.
struct ScratchTable {
    Database& db;
    std::string name;
    explicit ScratchTable(Database& database) : db(database), name(unique("scratch_")) {
        for (auto& c : name)
            if (c == '-') c = '_';
        auto s = db.session();
        s << "CREATE TABLE " + name + " (id TEXT PRIMARY KEY, label TEXT, amount BIGINT, flag BOOLEAN)", now;
    }
    ~ScratchTable() {
        try {
            auto s = db.session();
            s << "DROP TABLE " + name, now;
        } catch (...) {
        }
    }
};

std::vector<std::string> columnsOf(Poco::Data::Session& s, const std::string& sql) {
    Poco::Data::Statement st(s);
    st << sql;
    st.execute();
    Poco::Data::RecordSet rs(st);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < rs.columnCount(); ++i)
        names.push_back(rs.columnName(i));
    return names;
}

} // namespace

TEST(DatabaseApi, ValuesRoundTripThroughBindingsIntoAndRows) {
    auto& db = *env().db;
    ScratchTable t(db);
    const std::string text = "Kia ora \u0101 'quoted' \"double\" ? $1 ;";
    const Poco::Int64 big = std::numeric_limits<Poco::Int64>::max() - 7;
    db.write([&](storefront::db::Tx& tx) {
        auto& s = tx.session();
        std::string id = "a", label = text;
        Poco::Int64 amount = big;
        bool flag = true;
        s << db.sql("INSERT INTO " + t.name + " (id, label, amount, flag) VALUES (?, ?, ?, ?)"), use(id), use(label),
            use(amount), use(flag), now;
        std::string id2 = "b";
        Poco::Nullable<std::string> none;
        s << db.sql("INSERT INTO " + t.name + " (id, label, amount, flag) VALUES (?, ?, NULL, FALSE)"), use(id2),
            use(none), now;
    });

    auto s = db.session();
    std::string label;
    Poco::Int64 amount = 0;
    bool flag = false;
    std::string id = "a";
    s << db.sql("SELECT label, amount, flag FROM " + t.name + " WHERE id = ?"), use(id), into(label), into(amount),
        into(flag), now;
    EXPECT_EQ(label, text);
    EXPECT_EQ(amount, big);
    EXPECT_TRUE(flag);

    Poco::Data::Statement st(s);
    st << "SELECT id, label, amount, flag FROM " + t.name + " ORDER BY id";
    st.execute();
    Poco::Data::RecordSet rs(st);
    ASSERT_EQ(rs.rowCount(), 2u);
    storefront::db::Row b(rs, 1);
    EXPECT_EQ(b.text("id"), "b");
    EXPECT_EQ(b.optText("label"), std::nullopt);
    EXPECT_EQ(b.optInt64("amount"), std::nullopt);
    EXPECT_FALSE(b.boolean("flag"));
    EXPECT_EQ(storefront::db::Row(rs, 0).int64("amount"), big);
}

TEST(DatabaseApi, ARepeatedStatementSeesTheTableAfterItsShapeChanges) {
    auto& db = *env().db;
    ScratchTable t(db);
    auto s = db.session();
    const std::string all = "SELECT * FROM " + t.name;
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(columnsOf(s, all).size(), 4u);
    s << "ALTER TABLE " + t.name + " ADD COLUMN note TEXT", now;
    EXPECT_EQ(columnsOf(s, all), (std::vector<std::string>{"id", "label", "amount", "flag", "note"}));
}

TEST(DatabaseApi, AFailedWriteRollsBackAndTheConnectionStaysUsable) {
    auto& db = *env().db;
    ScratchTable t(db);
    const std::string insert = db.sql("INSERT INTO " + t.name + " (id, label) VALUES (?, ?)");
    auto put = [&](Poco::Data::Session& s, std::string id, std::string label) {
        s << insert, use(id), use(label), now;
    };
    db.write([&](storefront::db::Tx& tx) {
        auto& s = tx.session(); put(s, "x", "first"); });
    try {
        db.write([&](storefront::db::Tx& tx) {
        auto& s = tx.session();
            put(s, "y", "second");
            put(s, "x", "duplicate"); // primary key violation
        });
        FAIL() << "the duplicate key was accepted";
    } catch (const Poco::Exception& e) {
        if (db.dialect() == Dialect::PostgreSQL) {
            EXPECT_NE(e.displayText().find("SQLSTATE 23505"), std::string::npos) << e.displayText();
        }
    }
    // Every pooled connection, including the one that failed, still works; "y" was rolled back.
    for (int i = 0; i < 8; ++i) {
        int rows = -1;
        auto s = db.session();
        s << "SELECT COUNT(*) FROM " + t.name, into(rows), now;
        EXPECT_EQ(rows, 1);
    }
    db.write([&](storefront::db::Tx& tx) {
        auto& s = tx.session(); put(s, "z", "third"); });
}

TEST(DatabaseApi, MoreDistinctStatementsThanAConnectionKeepsStillRun) {
    auto& db = *env().db;
    auto s = db.session();
    for (int i = 0; i < 600; ++i) {
        int value = -1;
        s << "SELECT " + std::to_string(i), into(value), now;
        ASSERT_EQ(value, i);
    }
}

// db::query: the one way to run a statement, the same on both engines.
TEST(DatabaseApi, QueryBindsOwnedValuesAndMapsRows) {
    auto& db = *env().db;
    ScratchTable t(db);
    const std::string text = "Kia ora \u0101 'quoted' ? $1";
    db.write([&](storefront::db::Tx& tx) {
        // Temporaries and optionals bind directly: the query keeps its own copies.
        EXPECT_EQ(tx.query("INSERT INTO " + t.name + " (id, label, amount, flag) VALUES (?, ?, ?, ?)")
                      .bind(std::string("a"), text, std::int64_t{42}, true)
                      .changed(),
                  1u);
        tx.query("INSERT INTO " + t.name + " (id, label, amount, flag) VALUES (?, ?, ?, ?)")
            .bind("b", std::optional<std::string>(), std::optional<std::int64_t>(), false)
            .run();
    });
    auto s = db.session();
    struct Item {
        std::string id;
        std::optional<std::string> label;
        std::optional<std::int64_t> amount;
        bool flag;
    };
    auto read = [](const storefront::db::Row& r) {
        return Item{r.text("id"), r.optText("label"), r.optInt64("amount"), r.boolean("flag")};
    };
    auto items = storefront::db::query(s, "SELECT id, label, amount, flag FROM " + t.name + " ORDER BY id").all(read);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].label, text);
    EXPECT_EQ(items[0].amount, 42);
    EXPECT_TRUE(items[0].flag);
    EXPECT_EQ(items[1].label, std::nullopt);
    EXPECT_EQ(items[1].amount, std::nullopt);
    EXPECT_FALSE(items[1].flag);

    auto one = storefront::db::query(s, "SELECT id, label, amount, flag FROM " + t.name + " WHERE id = ?").bind("b").one(read);
    ASSERT_TRUE(one.has_value());
    EXPECT_EQ(one->id, "b");
    EXPECT_FALSE(storefront::db::query(s, "SELECT id, label, amount, flag FROM " + t.name + " WHERE id = ?").bind("zz").one(read));
    EXPECT_EQ(storefront::db::query(s, "SELECT COUNT(*) FROM " + t.name + " WHERE flag = ?").bind(true).count(), 1);
    EXPECT_EQ(storefront::db::query(s, "SELECT label FROM " + t.name + " WHERE id = ?").bind("a").text(), text);
    EXPECT_EQ(storefront::db::query(s, "SELECT label FROM " + t.name + " WHERE id = ?").bind("b").text(), std::nullopt);
    EXPECT_TRUE(storefront::db::query(s, "SELECT 1 FROM " + t.name + " WHERE id = ?").bind("a").exists());
    EXPECT_EQ(storefront::db::query(s, "UPDATE " + t.name + " SET amount = ? WHERE amount IS NULL").bind(7).changed(), 1u);
}

// A statement marked db::kPlanPerCall answers the same rows on both engines, call after call; on
// PostgreSQL it is described once but never run as the kept statement (whose plan would turn
// generic after five calls): pg_prepared_statements counts no plan for it, while the same text
// unmarked is run as kept every time.
TEST(DatabaseApi, APlanPerCallStatementAnswersLikeAnyOtherAndIsNeverRunAsAKeptPlan) {
    auto& db = *env().db;
    ScratchTable t(db);
    db.write([&](storefront::db::Tx& tx) {
        for (const char* label : {"Kiri Henare", "Xavier King", "Aroha Ngata"})
            tx.query("INSERT INTO " + t.name + " (id, label, amount, flag) VALUES (?, ?, 1, TRUE)").bind(unique("r"), label).run();
    });
    const std::string kept = "SELECT COUNT(*) FROM " + t.name + " WHERE LOWER(label) LIKE ?";
    const std::string perCall = std::string(storefront::db::kPlanPerCall) + kept;
    auto s = db.session();
    for (int i = 0; i < 7; ++i) {
        EXPECT_EQ(storefront::db::query(s, perCall).bind("%ki%").count(), 2) << i;
        EXPECT_EQ(storefront::db::query(s, kept).bind("%ki%").count(), 2) << i;
        EXPECT_EQ(storefront::db::query(s, perCall).bind("%ngata%").count(), 1) << i;
    }
    if (db.dialect() != Dialect::PostgreSQL) return;
    auto plans = [&](const std::string& sql) {
        return storefront::db::query(s, "SELECT COALESCE(SUM(generic_plans + custom_plans), -1) FROM pg_prepared_statements "
                                        "WHERE statement = ?")
            .bind(storefront::db::numberPlaceholders(sql))
            .count();
    };
    EXPECT_EQ(plans(perCall), 0); // described (listed), never executed as kept
    EXPECT_GE(plans(kept), 7);
}

// After-commit work runs once the transaction has committed, and never after a rollback; a topic
// notified several times reaches its subscribers once.
TEST(DatabaseApi, AfterCommitHooksRunOnCommitOnly) {
    // A database of its own, so the subscription below sees only this test's writes.
    auto db = storefront::db::Database::open(env().server->config().database);
    ScratchTable t(*db);
    const std::string topic = unique("topic-");
    int notified = 0, hooks = 0;
    db->subscribe(topic, [&] { ++notified; });
    db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO " + t.name + " (id) VALUES (?)").bind("x").run();
        tx.afterCommit([&] {
            // Runs after COMMIT: the row is visible to another session.
            auto s = db->session();
            EXPECT_EQ(storefront::db::query(s, "SELECT COUNT(*) FROM " + t.name).count(), 1);
            ++hooks;
        });
        tx.notify(topic);
        tx.notify(topic);
    });
    EXPECT_EQ(hooks, 1);
    EXPECT_EQ(notified, 1);

    EXPECT_THROW(db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO " + t.name + " (id) VALUES (?)").bind("y").run();
        tx.afterCommit([&] { ++hooks; });
        tx.notify(topic);
        throw std::runtime_error("changed my mind");
    }),
                 std::runtime_error);
    EXPECT_EQ(hooks, 1);
    EXPECT_EQ(notified, 1);
    auto s = db->session();
    EXPECT_EQ(storefront::db::query(s, "SELECT COUNT(*) FROM " + t.name).count(), 1);
}

TEST(DatabaseApi, ChangedCountsTheRowsAStatementWithReturningGaveBack) {
    auto& db = *env().db;
    ScratchTable t(db);
    db.write([&](storefront::db::Tx& tx) {
        for (const char* id : {"a", "b", "c"}) tx.query("INSERT INTO " + t.name + " (id, amount) VALUES (?, 1)").bind(id).run();
        EXPECT_EQ(tx.query("UPDATE " + t.name + " SET amount = amount + 1 WHERE id <> ? RETURNING id").bind("a").changed(), 2u);
        EXPECT_EQ(tx.query("UPDATE " + t.name + " SET amount = 0 WHERE id = ? RETURNING id").bind("zz").changed(), 0u);
        EXPECT_EQ(tx.query("DELETE FROM " + t.name + " WHERE amount = ?").bind(2).changed(), 2u);
    });
}

TEST(DatabaseApi, RunOnceRunsAWriteOnceInADatabasesLifeAndRetriesAfterAFailure) {
    auto& db = *env().db;
    const std::string version = unique("demo/test-");
    int runs = 0;
    // A failed write gives its claim back: the next start tries again.
    EXPECT_THROW(storefront::db::runOnce(db, version, [&] {
        ++runs;
        throw std::runtime_error("half-way");
    }),
                 std::runtime_error);
    EXPECT_TRUE(storefront::db::runOnce(db, version, [&] { ++runs; }));
    EXPECT_FALSE(storefront::db::runOnce(db, version, [&] { ++runs; }));
    EXPECT_EQ(runs, 2);
    auto s = db.session();
    EXPECT_EQ(storefront::db::query(s, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?").bind(version).count(), 1);
}

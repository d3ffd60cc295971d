// The database layer against the real engine of this run (SQLite, or PostgreSQL through the
// connector that keeps prepared statements per connection, db/postgres_session.cpp).
#include "db/database.h"
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

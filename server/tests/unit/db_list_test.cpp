// db/list.h and db/search.h: the list kit's SQL pieces, on an in-memory SQLite database.
#include "db/list.h"
#include "db/search.h"

#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Session.h>

#include <gtest/gtest.h>

#include <stdexcept>

using namespace storefront;

namespace {

Poco::Data::Session listTestDatabase() {
    Poco::Data::SQLite::Connector::registerConnector();
    Poco::Data::Session s("SQLite", ":memory:");
    s << "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, team TEXT)", Poco::Data::Keywords::now;
    for (int i = 1; i <= 12; ++i)
        db::query(s, "INSERT INTO people (id, name, team) VALUES (?, ?, ?)")
            .bind(i, "ListPerson " + std::to_string(i) + (i % 3 == 0 ? " 50%" : ""), i % 2 ? "red" : "blue")
            .run();
    return s;
}

struct ListPerson {
    std::int64_t id;
    std::string name;
};
ListPerson readListPerson(const db::Row& r) { return {r.int64("id"), r.text("name")}; }

const db::SortColumns kListTestSorts({{"name", "p.name"}, {"joined", "p.id"}}, "p.id", "joined");

} // namespace

TEST(DbSearch, LikePatternsAndTrigramPhrasesMeanTheSameTerm) {
    EXPECT_EQ(db::likePattern("  Ab%_\\c "), "%ab\\%\\_\\\\c%");
    EXPECT_EQ(db::trigramPhrase("  Ab%_\\c "), "\"ab%_\\c\"");
    EXPECT_EQ(db::trigramPhrase("Say \"Hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(db::trigramPhrase("Ng\u0100", "{full_name email}"), "{full_name email} : \"ng\u0100\"");
    // Fewer than three characters (code points, not bytes): no trigram, the caller scans.
    EXPECT_EQ(db::trigramPhrase("ab"), std::nullopt);
    EXPECT_EQ(db::trigramPhrase(" a  "), std::nullopt);
    EXPECT_EQ(db::trigramPhrase("\u0101\u0101"), std::nullopt);
    EXPECT_EQ(db::trigramPhrase("\u0101\u0101\u0101"), "\"\u0101\u0101\u0101\"");
}

TEST(DbList, ASortWordStandsForItsExpressionWithTheIdAsTieBreaker) {
    EXPECT_EQ(kListTestSorts.orderBy({"name", false}), "p.name ASC, p.id ASC");
    EXPECT_EQ(kListTestSorts.orderBy({"name", true}), "p.name DESC, p.id DESC");
    EXPECT_EQ(kListTestSorts.orderBy(), "p.id DESC, p.id DESC"); // the default column, newest first
    EXPECT_TRUE(kListTestSorts.descendingByDefault("joined"));
    EXPECT_FALSE(kListTestSorts.descendingByDefault("name"));
    EXPECT_EQ(kListTestSorts.names(), (std::vector<std::string>{"joined", "name"}));
    // SQL never comes from a word outside the allowlist.
    EXPECT_THROW((void)kListTestSorts.orderBy({"p.name; DROP TABLE people", false}), std::invalid_argument);
    EXPECT_THROW(db::SortColumns({{"name", "p.name"}}, "p.id", "joined"), std::invalid_argument);
}

TEST(DbList, WhereJoinsItsClausesAndBindsTheirValuesInOrder) {
    auto s = listTestDatabase();
    db::Where where(s);
    EXPECT_TRUE(where.empty());
    EXPECT_EQ(where.sql(), "");
    where.add("p.team = ?", {"red"});
    where.add("LOWER(p.name) LIKE ? ESCAPE '\\'", {db::likePattern("50%")});
    // On SQLite, LOWER(col) LIKE becomes col LIKE (db::lowerLike: the same rows).
    EXPECT_EQ(where.sql(), " WHERE p.team = ? AND p.name LIKE ? ESCAPE '\\'");
    EXPECT_EQ(db::countOf(s, "SELECT COUNT(*) FROM people p", where), 2); // 3 and 9
    EXPECT_EQ(db::cappedCountOf(s, "SELECT 1 FROM people p", where, 1), 1);
    EXPECT_EQ(db::Where(s, true).statement("SELECT 1"), std::string(db::kPlanPerCall) + "SELECT 1");
}

TEST(DbList, ACountedPageIsSortedPagedAndCounted) {
    auto s = listTestDatabase();
    db::Where where(s);
    where.add("p.team = ?", {"blue"}); // 2, 4, ..., 12
    db::PageQuery q;
    q.orderBy = kListTestSorts.orderBy({"joined", true});
    q.limit = 4;
    q.offset = 4;
    auto page = db::countedPageOf<ListPerson>(s, "SELECT p.id, p.name FROM people p", nullptr, "SELECT COUNT(*) FROM people p",
                                          where, q, readListPerson);
    EXPECT_EQ(page.total, 6);
    ASSERT_EQ(page.items.size(), 2u);
    EXPECT_EQ(page.items[0].id, 4);
    EXPECT_EQ(page.items[1].id, 2);
    // Counted in the page query itself (COUNT(*) OVER ()), and from the caller when it knows.
    auto counted = db::countedPageOf<ListPerson>(s, "SELECT p.id, p.name FROM people p",
                                             "SELECT p.id, p.name, COUNT(*) OVER () AS total_count FROM people p",
                                             "SELECT COUNT(*) FROM people p", where, q, readListPerson);
    EXPECT_EQ(counted.total, 6);
    q.knownTotal = 99;
    EXPECT_EQ((db::countedPageOf<ListPerson>(s, "SELECT p.id, p.name FROM people p", nullptr, "unused", where, q, readListPerson).total), 99);
}

TEST(DbList, ADeepPageChoosesItsIdsFirstAndReadsTheSameRows) {
    auto s = listTestDatabase();
    s.begin();
    for (int i = 13; i <= 620; ++i)
        db::query(s, "INSERT INTO people (id, name, team) VALUES (?, ?, 'red')").bind(i, "ListPerson " + std::to_string(i)).run();
    s.commit();
    db::Where where(s);
    where.add("p.team = ?", {"red"});
    db::PageQuery q;
    q.orderBy = kListTestSorts.orderBy({"name", false});
    q.limit = 5;
    q.offset = db::kDeferredJoinOffset + 50; // past it: the ids first, then the page's rows
    const auto deep = db::deferredPageOf<ListPerson>(s, "SELECT p.id, p.name FROM people p", "SELECT p.id FROM people p", "p.id",
                                                 where, q, readListPerson);
    const auto all = db::pageOf<ListPerson>(s, "SELECT p.id, p.name FROM people p", where, {q.orderBy, 1000, 0, std::nullopt}, readListPerson);
    ASSERT_EQ(deep.size(), 5u);
    for (std::size_t i = 0; i < deep.size(); ++i) EXPECT_EQ(deep[i].id, all[q.offset + i].id) << i;
}

TEST(DbList, ACappedTotalSaysSo) {
    db::Page<int> page;
    db::setCappedTotal(page, db::kSearchTotalCap + 1);
    EXPECT_TRUE(page.totalCapped);
    EXPECT_EQ(page.total, db::kSearchTotalCap);
    db::setCappedTotal(page, 7);
    EXPECT_FALSE(page.totalCapped);
    EXPECT_EQ(page.total, 7);
}

#pragma once
// The one home of a searched, filtered, sorted, paged list's SQL (DESIGN.md, "The staff side"):
// a page type, a WHERE builder, a repository's sort allowlist, and one way to read a page that is
// counted, deferred (a deep page's ids first) or capped (a search's count stops at
// db::kSearchTotalCap). Routes read the request (http/paging.h) and pass words and numbers;
// repositories own the SQL.
//
//   static const db::SortColumns kSorts({{"name", "w.full_name"}, {"joined", "w.created_at"}}, "w.id", "joined");
//   db::Where where(s);
//   if (filter.tier) where.add("w.entitlement = ?", {*filter.tier});
//   auto page = db::countedPageOf<Worker>(s, kColumns, nullptr, kCount, where, query, readWorker);
#include "db/database.h"
#include "db/dialect.h"
#include "db/query.h"
#include "db/search.h"

#include <Poco/Data/Session.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace storefront::db {

// One page of a list and the number of rows that match.
template <class T>
struct Page {
    std::vector<T> items;
    std::int64_t total = 0;
    // A searched list counts at most kSearchTotalCap matches: true when more match (total is then
    // the cap).
    bool totalCapped = false;
};

// A sort as the caller asked for it: a word of the repository's allowlist and a direction.
struct SortChoice {
    std::string column;
    bool descending = false;
};

// An order that every row can be read in, a page at a time, each page starting after the last row
// of the one before (keyset paging: every page is an index range, however deep): the sort's
// expression and the id, both in one direction.
struct Keyset {
    std::string expression; // "w.full_name"; may be NULL for some rows
    std::string id;         // "w.id"
    bool descending = true;
};

// A repository's sort allowlist: the words a route may pass ("name") and the ORDER BY expression
// each stands for ("w.full_name"), with the id column as the tie-breaker in the same direction
// (stable pages). Without a direction the default column sorts newest first (descending when
// `defaultDescending`), any other column ascending. The SQL never comes from a request.
class SortColumns {
public:
    SortColumns(std::initializer_list<std::pair<const std::string, std::string>> columns, std::string idColumn,
                std::string defaultColumn, bool defaultDescending = true);

    // The words, in alphabetical order.
    std::vector<std::string> names() const;
    bool has(const std::string& word) const { return columns_.contains(word); }
    const std::string& defaultColumn() const { return default_; }
    // The direction when the request names none.
    bool descendingByDefault(const std::string& word) const { return word == default_ && defaultDescending_; }
    // "expr DESC, id DESC". An unknown word is a programming error (the route checks the word
    // first): std::invalid_argument.
    std::string orderBy(const SortChoice& choice) const;
    // The default sort.
    std::string orderBy() const { return orderBy({default_, defaultDescending_}); }
    // The same order for reading every row in keyset pages (readAll).
    struct Keyset keyset(const SortChoice& choice) const;

private:
    std::map<std::string, std::string> columns_;
    std::string id_, default_;
    bool defaultDescending_;
};

// What to read of a list: the order (from a SortColumns or a fixed constant), one page, and the
// number of matching rows when the caller already knows it (maintained counts), so the table is
// not counted twice.
struct PageQuery {
    std::string orderBy;
    std::int64_t limit = 50, offset = 0;
    std::optional<std::int64_t> knownTotal;
};

// A WHERE clause and its bound values, in order; its LIKEs as the session's engine runs them
// fastest (db::lowerLike). `planPerCall` for a search by a term with no trigram: PostgreSQL then
// plans each statement for the term (db::kPlanPerCall), where a generic plan would read a pg_trgm
// index that cannot narrow a one- or two-character pattern (`ki`: 182 ms, 53 ms planned per call).
// Longer terms keep their prepared plans: the trigram index a generic plan uses is right for them.
class Where {
public:
    explicit Where(Poco::Data::Session& s, bool planPerCall = false) : sqlite_(isSqlite(s)), perCall_(planPerCall) {}
    // From the database's dialect alone: building a WHERE takes no session (an export builds its
    // WHERE, then readAll takes a session per batch only, DESIGN.md "slow clients").
    explicit Where(Dialect dialect, bool planPerCall = false) : sqlite_(dialect == Dialect::SQLite), perCall_(planPerCall) {}

    // Appends `clause` (with its `?`s) joined by AND, and the values it binds.
    void add(const char* clause, std::initializer_list<std::string> bound);
    bool empty() const { return sql_.empty(); }
    // " WHERE a AND b", or "" when nothing was added.
    const std::string& sql() const { return sql_; }
    // `text` as it should be prepared (marked to be planned per call when asked for).
    std::string statement(const std::string& text) const;
    void bindTo(Query& q) const;

private:
    bool sqlite_, perCall_;
    std::string sql_;
    std::vector<std::string> values_;
};

// A deep page (OFFSET at least this) chooses its ids first, from the sort's index alone, and reads
// the columns for the page's rows only (deferredPageOf).
inline constexpr std::int64_t kDeferredJoinOffset = 500;

// COUNT(*) of `countSql` + where.
std::int64_t countOf(Poco::Data::Session& s, const std::string& countSql, const Where& where);
// How many rows `rowsSql` + where has, counting at most `limit` of them.
std::int64_t cappedCountOf(Poco::Data::Session& s, const std::string& rowsSql, const Where& where, std::int64_t limit);

// total and totalCapped from a count that stopped at kSearchTotalCap + 1.
template <class T>
void setCappedTotal(Page<T>& page, std::int64_t counted) {
    page.totalCapped = counted > kSearchTotalCap;
    page.total = page.totalCapped ? kSearchTotalCap : counted;
}

// One page of `sql` + where in the query's order.
template <class T, class Map>
std::vector<T> pageOf(Poco::Data::Session& s, const std::string& sql, const Where& where, const PageQuery& query, Map&& map) {
    Query q(s, where.statement(sql + where.sql() + " ORDER BY " + query.orderBy + " LIMIT ? OFFSET ?"));
    where.bindTo(q);
    return q.bind(query.limit, query.offset).all(map);
}

// One page in the query's order. A deep page (OFFSET at least kDeferredJoinOffset) chooses its
// ids first (`idsSql`, "SELECT x.id FROM table x", with the same WHERE) from the sort's index alone
// and reads `columns` for the page's rows only: the rows OFFSET skips are index entries, not joined
// rows with their select lists computed.
template <class T, class Map>
std::vector<T> deferredPageOf(Poco::Data::Session& s, const std::string& columns, const char* idsSql, const char* idColumn,
                              const Where& where, const PageQuery& query, Map&& map) {
    if (query.offset < kDeferredJoinOffset) return pageOf<T>(s, columns, where, query, map);
    Query q(s, where.statement(columns + " WHERE " + idColumn + " IN (" + idsSql + where.sql() + " ORDER BY " +
                                       query.orderBy + " LIMIT ? OFFSET ?) ORDER BY " + query.orderBy));
    where.bindTo(q);
    return q.bind(query.limit, query.offset).all(map);
}

// One page and the number of matching rows: from the caller when it knows it, else from the page
// query's COUNT(*) OVER () AS total_count (one scan for a search; `columnsCounted`, may be null),
// else counted on its own with `countSql`.
template <class T, class Map>
Page<T> countedPageOf(Poco::Data::Session& s, const std::string& columns, const char* columnsCounted, const std::string& countSql,
                      const Where& where, const PageQuery& query, Map&& map) {
    Page<T> page;
    if (query.knownTotal) {
        page.total = *query.knownTotal;
        page.items = pageOf<T>(s, columns, where, query, map);
        return page;
    }
    if (!columnsCounted) {
        page.total = countOf(s, countSql, where);
        page.items = pageOf<T>(s, columns, where, query, map);
        return page;
    }
    std::int64_t total = -1;
    page.items = pageOf<T>(s, columnsCounted, where, query, [&](const Row& r) {
        total = r.int64("total_count");
        return map(r);
    });
    page.total = total >= 0 ? total : query.offset == 0 ? 0 : countOf(s, countSql, where);
    return page;
}

// Every row of `select` ("SELECT ... FROM ...") + where in the keyset's order, read `batch` rows a
// statement: each batch is read with a session from the pool and mapped (`map(const Row&)`), the
// session goes back, and only then is each item handed to `onItem` (a CSV download writing to a
// slow client holds no session while it waits). The memory held is one batch, however many rows
// match, and no statement skips rows with OFFSET.
// Rows whose sort expression is NULL come last, by id (on both engines). Returns the rows read.
// The sort expression is compared as its own type with the text of the last row's value (CAST AS
// TEXT reads back exactly on both engines).
std::string keysetSelect(const std::string& select, const Keyset& order);
template <class Map, class OnItem>
std::int64_t readAll(Database& db, const std::string& select, const Where& where, const Keyset& order, Map&& map,
                     OnItem&& onItem, std::int64_t batch = 500) {
    using Item = std::decay_t<decltype(map(std::declval<const Row&>()))>;
    std::vector<Item> items;
    const std::string keyed = keysetSelect(select, order);
    const char* after = order.descending ? " < ?" : " > ?";
    const char* dir = order.descending ? " DESC" : " ASC";
    const std::string withValue = order.expression + " IS NOT NULL";
    const std::string withoutValue = order.expression + " IS NULL";
    const std::string afterRow = "(" + order.expression + after + " OR (" + order.expression + " = ? AND " + order.id + after + "))";
    const std::string afterId = order.id + after;
    const std::string byValue = order.expression + dir + ", " + order.id + dir;
    const std::string byId = order.id + dir;
    std::int64_t total = 0;
    for (const bool valued : {true, false}) {
        std::optional<std::string> lastValue, lastId;
        for (;;) {
            Where page = where;
            page.add(valued ? withValue.c_str() : withoutValue.c_str(), {});
            if (lastId) {
                if (valued) page.add(afterRow.c_str(), {*lastValue, *lastValue, *lastId});
                else page.add(afterId.c_str(), {*lastId});
            }
            items.clear();
            {
                auto s = db.session();
                Query q(s, page.statement(keyed + page.sql() + " ORDER BY " + (valued ? byValue : byId) + " LIMIT ?"));
                page.bindTo(q);
                q.bind(batch).all([&](const Row& r) {
                    lastValue = r.optText("keyset_value");
                    lastId = r.text("keyset_id");
                    items.push_back(map(r));
                    return 0;
                });
            }
            for (const auto& item : items) onItem(item);
            const auto read = static_cast<std::int64_t>(items.size());
            total += read;
            if (read < batch) break;
        }
    }
    return total;
}

} // namespace storefront::db

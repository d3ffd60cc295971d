#pragma once
// The one way to run a statement. SQL is written once with `?` placeholders (numbered $n for
// PostgreSQL here, from the session's connector); the query owns copies of what it binds, so
// callers pass temporaries and optionals directly instead of copying values into locals for POCO.
//
//   auto product = db::query(s, kFindBySlug).bind(slug).one(readProduct);   // std::optional<Product>
//   auto plans   = db::query(s, kPlansFor).bind(id).all(readPlan);          // std::vector<Plan>
//   bool spent   = db::query(s, kSpend).bind(at, id).changed() == 1;        // rows affected
//   auto n       = db::query(s, kCount).bind(userId).count();               // first column of row 1
//
// std::nullopt (or an empty optional) binds SQL NULL. Read columns through db::Row; select ids
// and timestamps as CAST(... AS TEXT) so both engines hand back text.
#include "db/row.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Nullable.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace storefront::db {

class Query {
public:
    Query(Poco::Data::Session& session, std::string_view portableSql);
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    Query& bind(std::string value);
    Query& bind(const char* value) { return bind(std::string(value)); }
    Query& bind(std::string_view value) { return bind(std::string(value)); }
    Query& bind(std::int64_t value);
    Query& bind(int value) { return bind(static_cast<std::int64_t>(value)); }
    Query& bind(bool value);
    Query& bind(double value);
    Query& bind(std::nullopt_t);
    Query& bind(const std::optional<std::string>& value);
    Query& bind(const std::optional<std::int64_t>& value);
    // Binary data (BLOB on SQLite, BYTEA on PostgreSQL); read it back with Row::bytes.
    Query& bindBytes(std::string_view value);
    template <class A, class B, class... Rest>
    Query& bind(A&& a, B&& b, Rest&&... rest) {
        bind(std::forward<A>(a));
        return bind(std::forward<B>(b), std::forward<Rest>(rest)...);
    }

    // Runs the statement; returns the number of rows affected, or returned when it has RETURNING.
    std::size_t changed();
    // Runs it for its effect only.
    void run() { (void)changed(); }
    // The first row mapped through `map(const Row&)`, or nullopt when there is none.
    template <class Map>
    auto one(Map&& map) -> std::optional<std::invoke_result_t<Map, const Row&>> {
        auto rs = execute();
        if (rs.rowCount() == 0) return std::nullopt;
        return map(Row(rs, 0));
    }
    // Every row mapped through `map(const Row&)`.
    template <class Map>
    auto all(Map&& map) -> std::vector<std::invoke_result_t<Map, const Row&>> {
        auto rs = execute();
        std::vector<std::invoke_result_t<Map, const Row&>> out;
        out.reserve(rs.rowCount());
        for (std::size_t i = 0; i < rs.rowCount(); ++i) out.push_back(map(Row(rs, i)));
        return out;
    }
    // The first column of the first row as an integer (COUNT(*), a RETURNING value); 0 when no row
    // or NULL.
    std::int64_t count();
    // The first column of the first row as text; nullopt when no row or NULL.
    std::optional<std::string> text();
    // Whether the statement returned at least one row.
    bool exists();

private:
    Poco::Data::RecordSet execute();

    Poco::Data::Statement statement_;
    // Deques: POCO binds by reference, and a deque never moves what it already holds.
    std::deque<std::string> strings_;
    std::deque<Poco::Int64> integers_;
    std::deque<bool> booleans_;
    std::deque<double> doubles_;
    std::deque<Poco::Nullable<std::string>> nullableStrings_;
    std::deque<Poco::Nullable<Poco::Int64>> nullableIntegers_;
    std::deque<Poco::Data::BLOB> blobs_;
};

// A query on `session`: the statement text is numbered for PostgreSQL when the session is one.
inline Query query(Poco::Data::Session& session, std::string_view portableSql) { return Query(session, portableSql); }

} // namespace storefront::db

#pragma once
// Whether a session talks to SQLite, for the few statements that differ per engine (the trigram
// search of migration 0011, docs/database.md "Substring search"). Everything else is portable SQL.
#include <Poco/Data/Session.h>

#include <string>
#include <string_view>

namespace storefront::db {

inline bool isSqlite(Poco::Data::Session& session) { return session.connector() == "sqlite"; }

// A statement that starts with this comment is planned for its own values on every call: on
// PostgreSQL it is described once but sent with its text each time (PQexecParams,
// postgres_session.cpp), and that unnamed statement is planned with the parameters known. For
// searches: a kept statement switches to a generic plan after five calls, and a generic plan
// cannot tell a two-character LIKE pattern (no trigram: a scan is best) from a longer one (the
// pg_trgm index is best); it chose the index for `ki` and read all of it (132 ms where the scan
// takes 43). SQLite reads it as a comment.
inline constexpr std::string_view kPlanPerCall = "-- plan per call\n";

// A portable case-insensitive match, `LOWER(col) LIKE ?` with a lower-cased pattern, as the engine
// runs it fastest with the same rows. SQLite's LIKE folds ASCII case and nothing else, which is
// exactly what its LOWER() does, so on SQLite every `LOWER(col) LIKE` becomes `col LIKE` (no
// lowered copy of the column per row: a LIKE scan of a million certificates took 0.64 s with
// LOWER and 0.23 s without). PostgreSQL keeps LOWER: its LIKE is case-sensitive and its pg_trgm
// indexes are on lower(col). This relies on SQLite's default PRAGMA case_sensitive_like = OFF,
// which nothing here changes.
inline std::string lowerLike(bool sqlite, std::string sql) {
    if (!sqlite) return sql;
    constexpr std::string_view open = "LOWER(", close = ") LIKE ";
    std::size_t at = sql.find(open);
    while (at != std::string::npos) {
        const auto end = sql.find(')', at);
        if (end != std::string::npos && sql.compare(end, close.size(), close) == 0 &&
            sql.find('(', at + open.size()) > end) {
            sql.erase(end, 1);
            sql.erase(at, open.size());
        } else {
            at += open.size();
        }
        at = sql.find(open, at);
    }
    return sql;
}

} // namespace storefront::db

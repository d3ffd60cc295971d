#pragma once
// Search terms as SQL sees them: a LIKE pattern, an SQLite FTS5 trigram phrase, and the cap on a
// searched list's count. Pure text; the routes read the term (http/paging.h), the repositories
// turn it into SQL with these.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace storefront::db {

// A searched list may count its matches only up to kSearchTotalCap (a broad term over a million
// rows); it then answers total = the cap and "total_capped": true.
inline constexpr std::int64_t kSearchTotalCap = 10000;

// A search term for LIKE: lower-cased, with %, _ and \ escaped (use ESCAPE '\'), wrapped in %.
std::string likePattern(const std::string& term);

// The same term as an SQLite FTS5 phrase for the trigram search tables of migration 0011
// (`"term"`, lower-cased like likePattern, `"` doubled), which then match exactly the rows that
// LOWER(col) LIKE likePattern(term) matches. Absent when the trimmed term has fewer than three
// characters (code points): a trigram index cannot serve it, and the caller falls back to the LIKE
// scan. `columns`, when given, restricts the match: "{full_name email}".
inline constexpr std::size_t kMinTrigramChars = 3;
std::optional<std::string> trigramPhrase(const std::string& term, const std::string& columns = "");

} // namespace storefront::db

#pragma once
// The list conventions of every staff and companion list (DESIGN.md, "The staff side"):
// ?page=1&page_size=50 (at most 200), ?sort=<column>&dir=asc|desc from an allowlist, and the
// answer {"items": [...], "total": N, "page": P, "page_size": S} (+ "total_capped", below). Bad values are 422 with the
// field named; nothing is guessed.
#include "http/request.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>

namespace storefront::http {

struct PageRequest {
    std::int64_t page = 1;
    std::int64_t size = 50;
    std::int64_t offset() const { return (page - 1) * size; }
};

inline constexpr std::int64_t kMaxPageSize = 200;

// Reads page and page_size (422 when not a whole number in range).
PageRequest readPage(const Request& request, std::int64_t defaultSize = 50);

// A sort chosen from `columns` (query name -> ORDER BY expression, fixed by the caller, never
// from the request), with `dir` asc or desc. Unknown names are 422.
struct SortRequest {
    std::string orderBy; // e.g. "created_at DESC"
};
SortRequest readSort(const Request& request, const std::map<std::string, std::string>& columns,
                     const std::string& defaultColumn, bool defaultDescending);

// A filter parameter (?status=, ?actor=...): trimmed, absent when missing or empty.
std::optional<std::string> readFilter(const Request& request, const char* name);
// A filter that must be one of `allowed`: 422 naming the parameter and the choices otherwise.
std::optional<std::string> readChoice(const Request& request, const char* name, std::initializer_list<const char*> allowed);
// The search term ?q=: trimmed, absent when empty, 422 past kMaxSearchChars characters.
inline constexpr std::size_t kMaxSearchChars = 254; // the longest email address
std::optional<std::string> readSearch(const Request& request);

// A searched list may count its matches only up to kSearchTotalCap (a broad term over a million
// rows); it then answers total = the cap and "total_capped": true. Lists that pass `totalCapped`
// always carry the field (false when the total is exact).
inline constexpr std::int64_t kSearchTotalCap = 10000;
nlohmann::json pageJson(nlohmann::json items, std::int64_t total, const PageRequest& page,
                        std::optional<bool> totalCapped = std::nullopt);

// A search term for LIKE: lower-cased, with %, _ and \ escaped (use ESCAPE '\'), wrapped in %.
std::string likePattern(const std::string& term);

// The same term as an SQLite FTS5 phrase for the trigram search tables of migration 0011
// (`"term"`, lower-cased like likePattern, `"` doubled), which then match exactly the rows that
// LOWER(col) LIKE likePattern(term) matches. Absent when the trimmed term has fewer than three
// characters (code points): a trigram index cannot serve it, and the caller falls back to the LIKE
// scan. `columns`, when given, restricts the match: "{full_name email}".
inline constexpr std::size_t kMinTrigramChars = 3;
std::optional<std::string> trigramPhrase(const std::string& term, const std::string& columns = "");

} // namespace storefront::http

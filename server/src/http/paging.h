#pragma once
// The list conventions of every staff and companion list (DESIGN.md, "The staff side"):
// ?page=1&page_size=50 (at most 200), ?sort=<word>&dir=asc|desc from the repository's allowlist,
// and the answer {"items": [...], "total": N, "page": P, "page_size": S} (+ "total_capped", below).
// Bad values are 422 with the field named; nothing is guessed. Transport only: the SQL of a list
// (WHERE, ORDER BY, LIKE patterns, counts) is in db/list.h and the repositories.
#include "db/list.h"
#include "http/request.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
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

// A sort from the repository's allowlist (`columns`: the words a route may pass; the SQL stays in
// the repository), with `dir` asc or desc. Unknown words are 422 naming the choices. Without `dir`
// the allowlist's default direction for that word.
db::SortChoice readSort(const Request& request, const db::SortColumns& columns);

// A filter parameter (?status=, ?actor=...): trimmed, absent when missing or empty.
std::optional<std::string> readFilter(const Request& request, const char* name);
// A filter that must be one of `allowed`: 422 naming the parameter and the choices otherwise.
std::optional<std::string> readChoice(const Request& request, const char* name, std::initializer_list<const char*> allowed);
// The search term ?q=: trimmed, absent when empty, 422 past kMaxSearchChars characters.
inline constexpr std::size_t kMaxSearchChars = 254; // the longest email address
std::optional<std::string> readSearch(const Request& request);

// The answer of a list: {"items": [toJson(item)...], "total", "page", "page_size"}, and
// "total_capped" for a list whose search count stops at db::kSearchTotalCap (Total::MayBeCapped:
// then always present, false when the total is exact).
enum class Total { Exact, MayBeCapped };
template <class T, class ToJson>
nlohmann::json pageJson(const db::Page<T>& page, const PageRequest& request, ToJson&& toJson, Total total = Total::Exact) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : page.items) items.push_back(toJson(item));
    nlohmann::json json = {{"items", std::move(items)}, {"total", page.total}, {"page", request.page}, {"page_size", request.size}};
    if (total == Total::MayBeCapped) json["total_capped"] = page.totalCapped;
    return json;
}
// The same with each item's own toJson (found by argument-dependent lookup in the item's area).
template <class T>
nlohmann::json pageJson(const db::Page<T>& page, const PageRequest& request, Total total = Total::Exact) {
    return pageJson(page, request, [](const T& item) { return toJson(item); }, total);
}

// The page of the database that a request's page stands for, in the repository's `orderBy`.
inline db::PageQuery pageQuery(const PageRequest& page, std::string orderBy = {}) {
    db::PageQuery query;
    query.orderBy = std::move(orderBy);
    query.limit = page.size;
    query.offset = page.offset();
    return query;
}

} // namespace storefront::http

#include "http/paging.h"

#include "common/text.h"

#include "http/api_error.h"

#include <Poco/NumberParser.h>
#include <Poco/String.h>

namespace storefront::http {

namespace {

std::int64_t wholeNumber(const Request& request, const char* name, std::int64_t fallback, std::int64_t max,
                         nlohmann::json& errors) {
    auto text = request.query(name);
    if (!text || text->empty()) return fallback;
    Poco::Int64 value = 0;
    if (!Poco::NumberParser::tryParse64(*text, value) || value < 1 || value > max) {
        errors[name] = "Must be a whole number from 1 to " + std::to_string(max) + ".";
        return fallback;
    }
    return value;
}

} // namespace

PageRequest readPage(const Request& request, std::int64_t defaultSize) {
    nlohmann::json errors = nlohmann::json::object();
    PageRequest page;
    page.page = wholeNumber(request, "page", 1, 1'000'000, errors);
    page.size = wholeNumber(request, "page_size", defaultSize, kMaxPageSize, errors);
    if (!errors.empty()) throw ApiError::validation(errors);
    return page;
}

db::SortChoice readSort(const Request& request, const db::SortColumns& columns) {
    nlohmann::json errors = nlohmann::json::object();
    auto column = request.query("sort").value_or("");
    if (column.empty()) column = columns.defaultColumn();
    if (!columns.has(column)) {
        std::string names;
        for (const auto& name : columns.names()) names += (names.empty() ? "" : ", ") + name;
        errors["sort"] = "Must be one of: " + names + ".";
    }
    bool descending = columns.descendingByDefault(column);
    if (auto dir = request.query("dir"); dir && !dir->empty()) {
        if (*dir == "asc") descending = false;
        else if (*dir == "desc") descending = true;
        else errors["dir"] = "Must be asc or desc.";
    }
    if (!errors.empty()) throw ApiError::validation(errors);
    return {column, descending};
}

std::optional<std::string> readFilter(const Request& request, const char* name) {
    auto value = request.query(name);
    if (!value) return std::nullopt;
    auto trimmed = Poco::trim(*value);
    if (trimmed.empty()) return std::nullopt;
    return trimmed;
}

std::optional<std::string> readChoice(const Request& request, const char* name, std::initializer_list<const char*> allowed) {
    auto value = readFilter(request, name);
    if (!value) return std::nullopt;
    std::string names;
    for (const char* a : allowed) {
        if (*value == a) return value;
        names += (names.empty() ? "" : ", ") + std::string(a);
    }
    throw ApiError::validation({{name, "Must be one of: " + names + "."}});
}

std::optional<std::string> readSearch(const Request& request) {
    auto q = readFilter(request, "q");
    if (q && common::codePoints(*q) > kMaxSearchChars)
        throw ApiError::validation({{"q", "Must be at most " + std::to_string(kMaxSearchChars) + " characters."}});
    return q;
}

} // namespace storefront::http

#include "db/list.h"

#include <stdexcept>

namespace storefront::db {

SortColumns::SortColumns(std::initializer_list<std::pair<const std::string, std::string>> columns, std::string idColumn,
                         std::string defaultColumn, bool defaultDescending)
    : columns_(columns), id_(std::move(idColumn)), default_(std::move(defaultColumn)), defaultDescending_(defaultDescending) {
    if (!columns_.contains(default_)) throw std::invalid_argument("default sort column not in the allowlist: " + default_);
}

std::vector<std::string> SortColumns::names() const {
    std::vector<std::string> out;
    for (const auto& [name, _] : columns_) out.push_back(name);
    return out;
}

std::string SortColumns::orderBy(const SortChoice& choice) const {
    auto it = columns_.find(choice.column);
    if (it == columns_.end()) throw std::invalid_argument("unknown sort column: " + choice.column);
    const char* dir = choice.descending ? " DESC" : " ASC";
    return it->second + dir + ", " + id_ + dir;
}

void Where::add(const char* clause, std::initializer_list<std::string> bound) {
    sql_ += (sql_.empty() ? " WHERE " : " AND ") + lowerLike(sqlite_, clause);
    values_.insert(values_.end(), bound);
}

std::string Where::statement(const std::string& text) const {
    return perCall_ ? std::string(kPlanPerCall) + text : text;
}
Keyset SortColumns::keyset(const SortChoice& choice) const {
    auto it = columns_.find(choice.column);
    if (it == columns_.end()) throw std::invalid_argument("unknown sort column: " + choice.column);
    return {it->second, id_, choice.descending};
}

std::string keysetSelect(const std::string& select, const Keyset& order) {
    constexpr std::string_view kSelect = "SELECT ";
    if (!select.starts_with(kSelect)) throw std::invalid_argument("not a SELECT: " + select);
    return "SELECT CAST(" + order.expression + " AS TEXT) AS keyset_value, CAST(" + order.id + " AS TEXT) AS keyset_id, " +
           select.substr(kSelect.size());
}

void Where::bindTo(Query& q) const {
    for (const auto& v : values_) q.bind(v);
}

std::int64_t countOf(Poco::Data::Session& s, const std::string& countSql, const Where& where) {
    Query q(s, where.statement(countSql + where.sql()));
    where.bindTo(q);
    return q.count();
}

std::int64_t cappedCountOf(Poco::Data::Session& s, const std::string& rowsSql, const Where& where, std::int64_t limit) {
    Query q(s, where.statement("SELECT COUNT(*) FROM (" + rowsSql + where.sql() + " LIMIT ?) capped_rows"));
    where.bindTo(q);
    return q.bind(limit).count();
}

} // namespace storefront::db

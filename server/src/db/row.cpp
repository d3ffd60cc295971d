#include "db/row.h"

#include "db/database.h"

#include <Poco/String.h>

namespace storefront::db {

std::string Row::text(const std::string& column) const {
    auto v = rs_.value(column, row_);
    return v.isEmpty() ? std::string() : v.convert<std::string>();
}

std::optional<std::string> Row::optText(const std::string& column) const {
    auto v = rs_.value(column, row_);
    if (v.isEmpty()) return std::nullopt;
    return v.convert<std::string>();
}

std::int64_t Row::int64(const std::string& column) const {
    auto v = rs_.value(column, row_);
    return v.isEmpty() ? 0 : v.convert<Poco::Int64>();
}

std::optional<std::int64_t> Row::optInt64(const std::string& column) const {
    auto v = rs_.value(column, row_);
    if (v.isEmpty()) return std::nullopt;
    return v.convert<Poco::Int64>();
}

bool Row::boolean(const std::string& column) const {
    auto v = rs_.value(column, row_);
    if (v.isEmpty()) return false;
    if (v.isString()) {
        auto s = Poco::toLower(v.convert<std::string>());
        return s == "t" || s == "true" || s == "1";
    }
    return v.convert<bool>();
}

std::string Row::timestamp(const std::string& column) const { return normalizeTimestamp(text(column)); }

std::optional<std::string> Row::optTimestamp(const std::string& column) const {
    auto t = optText(column);
    if (!t) return std::nullopt;
    return normalizeTimestamp(*t);
}

} // namespace storefront::db

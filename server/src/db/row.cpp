#include "db/row.h"

#include "db/database.h"

#include <Poco/Data/LOB.h>
#include <Poco/String.h>

#include <stdexcept>

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

std::string Row::bytes(const std::string& column) const {
    auto v = rs_.value(column, row_);
    if (v.isEmpty()) return {};
    if (v.type() == typeid(Poco::Data::BLOB)) {
        const auto& blob = v.extract<Poco::Data::BLOB>();
        return std::string(reinterpret_cast<const char*>(blob.rawContent()), blob.size());
    }
    const auto& text = v.extract<std::string>();
    if (!text.starts_with("\\x")) return text;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        throw std::runtime_error("malformed bytea text");
    };
    std::string out((text.size() - 2) / 2, '\0');
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<char>((nibble(text[2 + 2 * i]) << 4) | nibble(text[3 + 2 * i]));
    return out;
}

} // namespace storefront::db

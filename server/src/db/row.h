#pragma once
// Typed reads from a POCO RecordSet row, the same on SQLite and PostgreSQL. Select ids and
// timestamps as CAST(... AS TEXT) so both engines hand back text.
#include <Poco/Data/RecordSet.h>

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::db {

class Row {
public:
    Row(const Poco::Data::RecordSet& rs, std::size_t row) : rs_(rs), row_(row) {}

    std::string text(const std::string& column) const;
    std::optional<std::string> optText(const std::string& column) const;
    std::int64_t int64(const std::string& column) const;
    std::optional<std::int64_t> optInt64(const std::string& column) const;
    bool boolean(const std::string& column) const;
    // A timestamp column selected as text, normalised to ISO-8601 UTC ("" when NULL).
    std::string timestamp(const std::string& column) const;
    std::optional<std::string> optTimestamp(const std::string& column) const;
    // A BLOB (SQLite) or BYTEA (PostgreSQL, which hands it over as \x hex text) column's bytes.
    std::string bytes(const std::string& column) const;

private:
    const Poco::Data::RecordSet& rs_;
    std::size_t row_;
};

} // namespace storefront::db

#include "db/query.h"

#include "db/database.h"

#include <Poco/Data/RecordSet.h>

using namespace Poco::Data::Keywords;

namespace storefront::db {

Query::Query(Poco::Data::Session& session, std::string_view portableSql) : statement_(session) {
    if (session.connector() == "sqlite") statement_ << std::string(portableSql);
    else statement_ << numberPlaceholders(portableSql);
}

Query& Query::bind(std::string value) {
    statement_, use(strings_.emplace_back(std::move(value)));
    return *this;
}

Query& Query::bind(std::int64_t value) {
    statement_, use(integers_.emplace_back(value));
    return *this;
}

Query& Query::bind(bool value) {
    statement_, use(booleans_.emplace_back(value));
    return *this;
}

Query& Query::bind(double value) {
    statement_, use(doubles_.emplace_back(value));
    return *this;
}

Query& Query::bind(std::nullopt_t) {
    statement_, use(nullableStrings_.emplace_back());
    return *this;
}

Query& Query::bind(const std::optional<std::string>& value) {
    auto& slot = nullableStrings_.emplace_back();
    if (value) slot = *value;
    statement_, use(slot);
    return *this;
}

Query& Query::bind(const std::optional<std::int64_t>& value) {
    auto& slot = nullableIntegers_.emplace_back();
    if (value) slot = static_cast<Poco::Int64>(*value);
    statement_, use(slot);
    return *this;
}

Query& Query::bindBytes(std::string_view value) {
    statement_, use(blobs_.emplace_back(reinterpret_cast<const unsigned char*>(value.data()), value.size()));
    return *this;
}

std::size_t Query::changed() {
    const std::size_t affected = statement_.execute();
    // With RETURNING, what counts is the rows returned (engines differ in what execute() says then).
    Poco::Data::RecordSet rs(statement_);
    return rs.columnCount() > 0 ? rs.rowCount() : affected;
}

Poco::Data::RecordSet Query::execute() {
    statement_.execute();
    return Poco::Data::RecordSet(statement_);
}

std::int64_t Query::count() {
    auto rs = execute();
    if (rs.rowCount() == 0 || rs.columnCount() == 0) return 0;
    auto v = rs.value(0, 0);
    return v.isEmpty() ? 0 : v.convert<Poco::Int64>();
}

std::optional<std::string> Query::text() {
    auto rs = execute();
    if (rs.rowCount() == 0 || rs.columnCount() == 0) return std::nullopt;
    auto v = rs.value(0, 0);
    if (v.isEmpty()) return std::nullopt;
    return v.convert<std::string>();
}

bool Query::exists() { return execute().rowCount() > 0; }

} // namespace storefront::db

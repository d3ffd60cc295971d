#include "db/search.h"

#include "common/text.h"

#include <Poco/String.h>

namespace storefront::db {

std::string likePattern(const std::string& term) {
    std::string out = "%";
    for (char c : Poco::toLower(Poco::trim(term))) {
        if (c == '%' || c == '_' || c == '\\') out += '\\';
        out += c;
    }
    return out + "%";
}

std::optional<std::string> trigramPhrase(const std::string& term, const std::string& columns) {
    const auto lowered = Poco::toLower(Poco::trim(term));
    if (common::codePoints(lowered) < kMinTrigramChars) return std::nullopt;
    std::string out = columns.empty() ? "\"" : columns + " : \"";
    for (char c : lowered) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace storefront::db

#pragma once
// Small text rules more than one area needs: length as people count it, URL components, HTML escaping,
// UUID syntax, single-line text.
#include <cstddef>
#include <string>
#include <string_view>

namespace storefront::common {

// Unicode code points in UTF-8 text: what "N characters" means in every length rule.
std::size_t codePoints(std::string_view utf8);

// Percent-encodes everything but the unreserved characters, for one query value or path segment.
std::string encodeUriComponent(const std::string& value);

// Escapes the five HTML/XML special characters for text and attribute values.
std::string escapeHtml(std::string_view text);

// True for a UUID in its canonical 36-character text form (ids in paths and bodies).
bool isUuid(const std::string& text);

// True when the text has no control character (C0 or DEL): one line, as a reason, a reference,
// a carrier or a mail header needs it.
bool isOneLine(std::string_view text);

} // namespace storefront::common

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

// True when the text has no control character (C0 with CR, LF, NUL and tab; DEL; C1 such as
// U+0085 NEL) and no line or paragraph separator (U+2028, U+2029): one line, as every field that
// ends up in a mail header, a file name or a CSV line needs it (names, company names, billing
// emails, carriers, subjects, reasons, references). The one rule: http::Body::optLine and
// requiredLine apply it to request members, and docs/openapi.yaml marks those x-single-line.
bool isOneLine(std::string_view text);

} // namespace storefront::common

#pragma once
// Text helpers for the server-rendered <head>: plain text from rich text, meta descriptions,
// HTML escaping (common/text.h) and JSON that is safe inside a <script> element.
#include "common/text.h"

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace storefront::seo {

using common::escapeHtml; // the one HTML escaper, shared with the test-checkout pages

// The text content of an HTML fragment, parsed as a browser would (gumbo): tags removed, character
// references decoded, block boundaries and <br> become spaces, whitespace (including U+00A0 and the
// Unicode space separators) collapsed to single spaces, trimmed. Content of script, style, template,
// noscript, iframe, object, embed, textarea, select, head/title and svg/math is ignored. Input over
// the rich-text limits (catalog::kMaxRichTextBytes / kMaxRichTextTags) is read only up to them.
std::string plainText(std::string_view html);

// plainText(html) cut to at most maxChars Unicode code points (not bytes; a UTF-8 sequence is never
// split). When cut, the text ends at a word boundary (a hard cut only for one overlong word, never
// before a combining mark), trailing spaces and ",;:.-" are removed and "…" (U+2026) is appended,
// counted within maxChars.
std::string metaDescription(std::string_view html, std::size_t maxChars = 160);

// The cutting rule of metaDescription applied to text that is already plain (not parsed as HTML;
// whitespace is collapsed first).
std::string truncateText(std::string_view text, std::size_t maxChars = 160);

// Compact JSON (invalid UTF-8 replaced by U+FFFD) with <, >, & written as \u003c, \u003e, \u0026 and
// U+2028/U+2029 as \u2028/\u2029: safe inside <script type="application/json"> and JSON-LD blocks
// ("</script>" or "<!--" in a value cannot end or alter the element).
std::string jsonForScript(const nlohmann::json& value);

} // namespace storefront::seo

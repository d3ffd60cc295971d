#pragma once
// Allowlist sanitiser for the admin rich-text fields (products.description, description_detail).
//
// The allowlist matches the admin editor's toolbar (Quill 2: headings 1-3, bold, italic, underline,
// strike, ordered and bullet lists, link, clean). Input is parsed with gumbo exactly as a browser
// would parse it inside <body>, then re-serialised:
//   * kept:     h1 h2 h3 p br strong b em i u s strike ol ul li a
//   * attributes: a[href] (http, https, mailto or relative/fragment URLs only; an <a> without a safe
//     href is unwrapped), a[target] only as "_blank", and every <a> gets rel="noopener noreferrer";
//     li[data-list] only as bullet | ordered | checked | unchecked. Nothing else.
//   * dropped with their content: script, style, iframe, object, embed, template, noscript, svg,
//     math (any non-HTML namespace), form controls, head/title/meta/link/base, images and media.
//   * unwrapped (tag removed, children kept): every other element (div, span, font, table, ...).
//   * comments are dropped.
// Structural rules keep the output stable when it is parsed again (so sanitising is idempotent):
// no block (p, h1-h3, ol, ul) inside p or a heading, li only directly inside ol/ul, no a inside a,
// and at most kMaxRichTextDepth nested kept elements; elements breaking a rule are unwrapped.
#include <cstddef>
#include <string>
#include <string_view>

namespace storefront::catalog {

// Limits on what is parsed at all. gumbo frees its tree recursively and some nestings are quadratic
// to parse, so unbounded input is a denial-of-service risk. Product descriptions are a few KiB.
inline constexpr std::size_t kMaxRichTextBytes = 256 * 1024;
inline constexpr std::size_t kMaxRichTextTags = 10000; // '<' followed by an ASCII letter
inline constexpr std::size_t kMaxRichTextDepth = 32;   // nested kept elements in the output

// Returns the sanitised HTML; empty input gives empty output.
// Throws std::invalid_argument when html is longer than kMaxRichTextBytes or holds more than
// kMaxRichTextTags start tags (callers validating admin input should check richTextWithinLimits
// first and answer 422).
std::string sanitizeRichText(std::string_view html);

// True when sanitizeRichText would accept the input's size.
bool richTextWithinLimits(std::string_view html) noexcept;

// Length of the longest prefix of html that is within both limits: the whole input when it is,
// otherwise cut before the first start tag over the limit or at the byte limit, never inside a
// UTF-8 sequence. Text extraction (seo::plainText) uses this to degrade instead of failing.
std::size_t richTextLimitPrefix(std::string_view html) noexcept;

} // namespace storefront::catalog

#include "seo/text.h"

#include <gumbo.h>

#include <memory>
#include <vector>

#include "catalog/html_sanitizer.h"

namespace storefront::seo {
namespace {

struct GumboOutputDeleter {
    void operator()(GumboOutput* output) const { gumbo_destroy_output(&kGumboDefaultOptions, output); }
};

// Elements whose content is not visible text.
bool skipsContent(GumboTag tag) {
    switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_NOEMBED:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_DATALIST:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
        return true;
    default:
        return false;
    }
}

// Phrasing elements: no word boundary around them ("<b>Tā</b>maki" is one word).
bool isInline(GumboTag tag) {
    switch (tag) {
    case GUMBO_TAG_A:
    case GUMBO_TAG_ABBR:
    case GUMBO_TAG_ACRONYM:
    case GUMBO_TAG_B:
    case GUMBO_TAG_BDI:
    case GUMBO_TAG_BDO:
    case GUMBO_TAG_BIG:
    case GUMBO_TAG_CITE:
    case GUMBO_TAG_CODE:
    case GUMBO_TAG_DATA:
    case GUMBO_TAG_DEL:
    case GUMBO_TAG_DFN:
    case GUMBO_TAG_EM:
    case GUMBO_TAG_FONT:
    case GUMBO_TAG_I:
    case GUMBO_TAG_INS:
    case GUMBO_TAG_KBD:
    case GUMBO_TAG_LABEL:
    case GUMBO_TAG_MARK:
    case GUMBO_TAG_NOBR:
    case GUMBO_TAG_Q:
    case GUMBO_TAG_S:
    case GUMBO_TAG_SAMP:
    case GUMBO_TAG_SMALL:
    case GUMBO_TAG_SPAN:
    case GUMBO_TAG_STRIKE:
    case GUMBO_TAG_STRONG:
    case GUMBO_TAG_SUB:
    case GUMBO_TAG_SUP:
    case GUMBO_TAG_TIME:
    case GUMBO_TAG_TT:
    case GUMBO_TAG_U:
    case GUMBO_TAG_VAR:
    case GUMBO_TAG_WBR:
    case GUMBO_TAG_UNKNOWN:
        return true;
    default:
        return false;
    }
}

// Byte length of the whitespace character at s[i] (ASCII whitespace, U+00A0, U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000), or 0.
std::size_t whitespaceAt(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
    auto byteIs = [&](std::size_t k, unsigned char v) {
        return i + k < s.size() && static_cast<unsigned char>(s[i + k]) == v;
    };
    if (c == 0xC2 && byteIs(1, 0xA0)) return 2;
    if (c == 0xE1 && byteIs(1, 0x9A) && byteIs(2, 0x80)) return 3;
    if (c == 0xE2 && byteIs(1, 0x80) && i + 2 < s.size()) {
        const auto t = static_cast<unsigned char>(s[i + 2]);
        if ((t >= 0x80 && t <= 0x8A) || t == 0xA8 || t == 0xA9 || t == 0xAF) return 3;
    }
    if (c == 0xE2 && byteIs(1, 0x81) && byteIs(2, 0x9F)) return 3;
    if (c == 0xE3 && byteIs(1, 0x80) && byteIs(2, 0x80)) return 3;
    return 0;
}

// Collapses whitespace runs to one space, trims, and drops other C0 controls.
std::string collapseWhitespace(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool pendingSpace = false;
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t ws = whitespaceAt(s, i)) {
            pendingSpace = !out.empty();
            i += ws;
            continue;
        }
        const auto c = static_cast<unsigned char>(s[i++]);
        if (c < 0x20 || c == 0x7f) continue;
        if (pendingSpace) out += ' ';
        pendingSpace = false;
        out += static_cast<char>(c);
    }
    return out;
}

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// U+0300-U+036F (combining diacritical marks, e.g. a decomposed macron) starting at s[i].
bool combiningMarkAt(std::string_view s, std::size_t i) {
    if (i + 1 >= s.size()) return false;
    const auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]);
    return (a == 0xCC && b >= 0x80) || (a == 0xCD && b <= 0xAF);
}

} // namespace

std::string plainText(std::string_view html) {
    if (html.empty()) return {};
    html = html.substr(0, catalog::richTextLimitPrefix(html));

    GumboOptions options = kGumboDefaultOptions;
    options.fragment_context = GUMBO_TAG_BODY;
    options.fragment_namespace = GUMBO_NAMESPACE_HTML;
    options.max_errors = 0;
    std::unique_ptr<GumboOutput, GumboOutputDeleter> parsed(
        gumbo_parse_with_options(&options, html.data(), html.size()));
    if (!parsed || !parsed->root) return {};

    // Iterative walk (no recursion on attacker-controlled depth). A frame whose children are done
    // adds a trailing space when it is a block element.
    struct Frame {
        const GumboNode* node;
        unsigned nextChild;
        bool block;
    };
    std::string text;
    std::vector<Frame> stack{{parsed->root, 0, false}};
    while (!stack.empty()) {
        Frame& frame = stack.back();
        const GumboVector& children = frame.node->v.element.children;
        if (frame.nextChild >= children.length) {
            if (frame.block) text += ' ';
            stack.pop_back();
            continue;
        }
        const auto* child = static_cast<const GumboNode*>(children.data[frame.nextChild++]);
        switch (child->type) {
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_WHITESPACE:
        case GUMBO_NODE_CDATA:
            text += child->v.text.text;
            break;
        case GUMBO_NODE_ELEMENT: {
            const GumboElement& el = child->v.element;
            if (el.tag_namespace != GUMBO_NAMESPACE_HTML || skipsContent(el.tag)) break;
            const bool block = !isInline(el.tag);
            if (block) text += ' ';
            stack.push_back(Frame{child, 0, block});
            break;
        }
        default: // comments and inert template content
            break;
        }
    }
    return collapseWhitespace(text);
}

std::string metaDescription(std::string_view html, std::size_t maxChars) {
    return truncateText(plainText(html), maxChars);
}

std::string truncateText(std::string_view input, std::size_t maxChars) {
    std::string text = collapseWhitespace(input);
    if (maxChars == 0) return {};

    // Byte offset just after the first `budget` code points, or npos if the text is shorter.
    auto offsetAfter = [&](std::size_t budget) -> std::size_t {
        std::size_t count = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (isContinuationByte(text[i])) continue;
            if (count == budget) return i;
            ++count;
        }
        return std::string::npos;
    };
    if (offsetAfter(maxChars) == std::string::npos) return text; // fits

    const std::size_t budget = maxChars - 1; // room for the ellipsis
    std::size_t cut = offsetAfter(budget);
    if (text[cut] != ' ') {
        const std::size_t space = budget == 0 ? std::string::npos : text.rfind(' ', cut - 1);
        if (space != std::string::npos && space > 0) {
            cut = space;
        } else {
            // A single word longer than the budget: cut inside it, but not between a letter and
            // its combining mark.
            while (cut > 0 && combiningMarkAt(text, cut)) {
                do --cut;
                while (cut > 0 && isContinuationByte(text[cut]));
            }
        }
    }
    text.resize(cut);
    while (!text.empty() && std::string_view(" ,;:.-").find(text.back()) != std::string_view::npos) text.pop_back();
    text += "\u2026";
    return text;
}

std::string jsonForScript(const nlohmann::json& value) {
    const std::string json = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // '<', '>' and '&' only occur inside JSON strings, where a \u escape means the same character.
    std::string out;
    out.reserve(json.size() + 16);
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '<') {
            out += "\\u003c";
        } else if (c == '>') {
            out += "\\u003e";
        } else if (c == '&') {
            out += "\\u0026";
        } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
                   (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
            out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace storefront::seo

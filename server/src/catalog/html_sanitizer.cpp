#include "catalog/html_sanitizer.h"

#include <gumbo.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace storefront::catalog {
namespace {

enum class Action { Keep, Unwrap, Drop };

// What happens to an HTML-namespace element, before the structural rules are applied.
Action classify(GumboTag tag) {
    switch (tag) {
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_P:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_STRONG:
    case GUMBO_TAG_B:
    case GUMBO_TAG_EM:
    case GUMBO_TAG_I:
    case GUMBO_TAG_U:
    case GUMBO_TAG_S:
    case GUMBO_TAG_STRIKE:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_A:
        return Action::Keep;

    // Executable, embedding or document-level elements, form controls, images and media:
    // their content is never meant to be read as text.
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_APPLET:
    case GUMBO_TAG_PARAM:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_NOEMBED:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_FRAME:
    case GUMBO_TAG_FRAMESET:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_MATH:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_BASE:
    case GUMBO_TAG_LINK:
    case GUMBO_TAG_META:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_DATALIST:
    case GUMBO_TAG_OPTGROUP:
    case GUMBO_TAG_OPTION:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_KEYGEN:
    case GUMBO_TAG_OUTPUT:
    case GUMBO_TAG_PROGRESS:
    case GUMBO_TAG_METER:
    case GUMBO_TAG_ISINDEX:
    case GUMBO_TAG_MENUITEM:
    case GUMBO_TAG_IMG:
    case GUMBO_TAG_IMAGE:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_SOURCE:
    case GUMBO_TAG_TRACK:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_MAP:
    case GUMBO_TAG_AREA:
    case GUMBO_TAG_BGSOUND:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_WBR:
    case GUMBO_TAG_COL:
    case GUMBO_TAG_COLGROUP:
        return Action::Drop;

    default:
        return Action::Unwrap; // div, span, font, table, unknown and custom elements, ...
    }
}

bool isHeading(GumboTag tag) { return tag == GUMBO_TAG_H1 || tag == GUMBO_TAG_H2 || tag == GUMBO_TAG_H3; }

// Elements whose start tag closes an open <p> when parsed.
bool isBlock(GumboTag tag) {
    return tag == GUMBO_TAG_P || isHeading(tag) || tag == GUMBO_TAG_OL || tag == GUMBO_TAG_UL;
}

bool asciiIEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

// The href a browser would act on, if it is one we allow. Mirrors the URL parser's pre-processing:
// leading/trailing C0 controls and spaces are stripped and tabs/newlines anywhere are removed
// ("java\tscript:" is "javascript:"). Entities were already decoded by the HTML parser, and the
// output re-escapes '&', so the browser sees exactly the string checked here. Any other control
// character rejects the URL. A ':' before the first '/', '?' or '#' means the URL has a scheme
// (or is a browser-specific oddity): only http, https and mailto pass; everything else without a
// scheme is relative (path, "//host", "?query", "#fragment") and passes.
std::optional<std::string> safeHref(std::string_view raw) {
    std::size_t begin = 0, end = raw.size();
    while (begin < end && static_cast<unsigned char>(raw[begin]) <= 0x20) ++begin;
    while (end > begin && static_cast<unsigned char>(raw[end - 1]) <= 0x20) --end;
    std::string url;
    url.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (c == '\t' || c == '\n' || c == '\r') continue;
        if (c < 0x20 || c == 0x7f) return std::nullopt;
        url.push_back(static_cast<char>(c));
    }
    if (url.empty()) return std::nullopt;

    const std::size_t delimiter = url.find_first_of("/?#");
    const std::size_t colon = url.find(':');
    if (colon != std::string::npos && (delimiter == std::string::npos || colon < delimiter)) {
        const std::string_view scheme(url.data(), colon);
        if (!asciiIEquals(scheme, "http") && !asciiIEquals(scheme, "https") && !asciiIEquals(scheme, "mailto"))
            return std::nullopt;
    }
    return url;
}

bool allowedListStyle(std::string_view v) {
    return v == "bullet" || v == "ordered" || v == "checked" || v == "unchecked";
}

const GumboAttribute* findAttribute(const GumboNode* node, const char* name) {
    return gumbo_get_attribute(&node->v.element.attributes, name);
}

// HTML serialisation escaping (as the browser's innerHTML does): '&', '<', '>' and U+00A0 always,
// '"' in attribute values. CR can only arrive as a character reference; it is written as LF (both are
// whitespace) because a raw CR would be normalised away on the next parse. NUL is dropped.
void appendEscaped(std::string& out, std::string_view s, bool attribute) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"':
            if (attribute) out += "&quot;";
            else out += c;
            break;
        case '\r': out += '\n'; break;
        case '\0': break;
        default:
            if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') {
                out += "&nbsp;";
                ++i;
            } else {
                out += c;
            }
        }
    }
}

void appendAttribute(std::string& out, const char* name, std::string_view value) {
    out += ' ';
    out += name;
    out += "=\"";
    appendEscaped(out, value, true);
    out += '"';
}

struct GumboOutputDeleter {
    void operator()(GumboOutput* output) const { gumbo_destroy_output(&kGumboDefaultOptions, output); }
};

// One element being walked: its children are visited in order, and `kept` says whether its end tag
// must be written when they are done.
struct Frame {
    const GumboNode* node;
    unsigned nextChild = 0;
    bool kept = false;
};

class Serializer {
public:
    std::string run(const GumboNode* root) {
        stack_.push_back(Frame{root});
        while (!stack_.empty()) {
            Frame& frame = stack_.back();
            const GumboVector& children = frame.node->v.element.children;
            if (frame.nextChild >= children.length) {
                if (frame.kept) closeKept();
                stack_.pop_back();
                continue;
            }
            visit(static_cast<const GumboNode*>(children.data[frame.nextChild++]));
        }
        return std::move(out_);
    }

private:
    void visit(const GumboNode* node) {
        switch (node->type) {
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_WHITESPACE:
        case GUMBO_NODE_CDATA:
            appendEscaped(out_, node->v.text.text, false);
            return;
        case GUMBO_NODE_ELEMENT:
            visitElement(node);
            return;
        default: // comments, templates (their content is inert), documents
            return;
        }
    }

    void visitElement(const GumboNode* node) {
        const GumboElement& el = node->v.element;
        if (el.tag_namespace != GUMBO_NAMESPACE_HTML) return; // svg and math content
        Action action = classify(el.tag);
        if (action == Action::Drop) return;
        std::optional<std::string> href;
        if (action == Action::Keep) {
            if (!structureAllows(el.tag)) {
                action = Action::Unwrap;
            } else if (el.tag == GUMBO_TAG_A) {
                if (const GumboAttribute* a = findAttribute(node, "href")) href = safeHref(a->value);
                if (!href) action = Action::Unwrap; // a link without a safe target is just its text
            }
        }
        if (action == Action::Unwrap) {
            stack_.push_back(Frame{node});
            return;
        }

        const char* name = gumbo_normalized_tagname(el.tag);
        out_ += '<';
        out_ += name;
        if (el.tag == GUMBO_TAG_A) {
            // Same attribute order as Quill's link format, so its output round-trips unchanged.
            appendAttribute(out_, "href", *href);
            appendAttribute(out_, "rel", "noopener noreferrer");
            const GumboAttribute* target = findAttribute(node, "target");
            if (target && asciiIEquals(target->value, "_blank")) appendAttribute(out_, "target", "_blank");
        } else if (el.tag == GUMBO_TAG_LI) {
            const GumboAttribute* list = findAttribute(node, "data-list");
            if (list && allowedListStyle(list->value)) appendAttribute(out_, "data-list", list->value);
        }
        out_ += '>';
        if (el.tag == GUMBO_TAG_BR) return; // void element: no children, no end tag

        open_.push_back(el.tag);
        if (el.tag == GUMBO_TAG_P || isHeading(el.tag)) ++openTextBlocks_;
        if (el.tag == GUMBO_TAG_A) ++openLinks_;
        Frame frame{node};
        frame.kept = true;
        stack_.push_back(frame);
    }

    // Rules that keep the serialised output parsing back into the same tree (see the header).
    bool structureAllows(GumboTag tag) const {
        if (tag == GUMBO_TAG_BR) return true;
        if (open_.size() >= kMaxRichTextDepth) return false;
        if (isBlock(tag) && openTextBlocks_ > 0) return false;
        if (tag == GUMBO_TAG_LI)
            return !open_.empty() && (open_.back() == GUMBO_TAG_OL || open_.back() == GUMBO_TAG_UL);
        if (tag == GUMBO_TAG_A && openLinks_ > 0) return false;
        return true;
    }

    void closeKept() {
        const GumboTag tag = open_.back();
        open_.pop_back();
        if (tag == GUMBO_TAG_P || isHeading(tag)) --openTextBlocks_;
        if (tag == GUMBO_TAG_A) --openLinks_;
        out_ += "</";
        out_ += gumbo_normalized_tagname(tag);
        out_ += '>';
    }

    std::string out_;
    std::vector<Frame> stack_;
    std::vector<GumboTag> open_; // kept elements currently open in the output
    int openTextBlocks_ = 0;     // open p / h1-h3
    int openLinks_ = 0;          // open a
};

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

} // namespace

std::size_t richTextLimitPrefix(std::string_view html) noexcept {
    std::size_t limit = std::min(html.size(), kMaxRichTextBytes);
    std::size_t tags = 0;
    for (std::size_t i = 0; i + 1 < limit; ++i) {
        if (html[i] == '<' && isAsciiLetter(html[i + 1]) && ++tags > kMaxRichTextTags) {
            limit = i;
            break;
        }
    }
    // Never end inside a UTF-8 sequence: back off over continuation bytes to the lead byte
    // when the sequence it starts would be cut.
    if (limit < html.size()) {
        std::size_t lead = limit;
        while (lead > 0 && (static_cast<unsigned char>(html[lead]) & 0xC0) == 0x80) --lead;
        limit = lead;
    }
    return limit;
}

bool richTextWithinLimits(std::string_view html) noexcept { return richTextLimitPrefix(html) == html.size(); }

std::string sanitizeRichText(std::string_view html) {
    if (html.empty()) return {};
    if (html.size() > kMaxRichTextBytes)
        throw std::invalid_argument("rich text is larger than " + std::to_string(kMaxRichTextBytes / 1024) + " KiB");
    if (!richTextWithinLimits(html))
        throw std::invalid_argument("rich text has more than " + std::to_string(kMaxRichTextTags) + " tags");

    GumboOptions options = kGumboDefaultOptions;
    options.fragment_context = GUMBO_TAG_BODY; // parse as the content of <body>
    options.fragment_namespace = GUMBO_NAMESPACE_HTML;
    options.max_errors = 0; // parse errors are irrelevant here; do not collect them
    std::unique_ptr<GumboOutput, GumboOutputDeleter> parsed(
        gumbo_parse_with_options(&options, html.data(), html.size()));
    if (!parsed || !parsed->root) return {};
    return Serializer{}.run(parsed->root);
}

} // namespace storefront::catalog

#include "catalog/html_sanitizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using storefront::catalog::kMaxRichTextBytes;
using storefront::catalog::kMaxRichTextDepth;
using storefront::catalog::kMaxRichTextTags;
using storefront::catalog::richTextLimitPrefix;
using storefront::catalog::richTextWithinLimits;
using storefront::catalog::sanitizeRichText;

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

// Properties every sanitised output must have, whatever the input, checked on the serialised form:
// every '<' starts an allowlisted tag (so no comment, no other element, no unescaped text '<'),
// attributes are only a[href|rel|target] and li[data-list], always double-quoted without raw '"' or '<',
// and every href either has no scheme or an http, https or mailto one (after the URL parser's
// stripping of controls, tabs and newlines).
void expectSafe(const std::string& input, const std::string& out) {
    SCOPED_TRACE("input: " + input + "\noutput: " + out);
    static const std::vector<std::string> allowed = {"h1", "h2", "h3", "p",  "br", "strong", "b", "em",
                                                     "i",  "u",  "s",  "strike", "ol", "ul", "li", "a"};
    for (std::size_t at = out.find('<'); at != std::string::npos; at = out.find('<', at + 1)) {
        std::size_t i = at + 1;
        const bool endTag = i < out.size() && out[i] == '/';
        if (endTag) ++i;
        std::size_t end = i;
        while (end < out.size() && std::isalnum(static_cast<unsigned char>(out[end]))) ++end;
        const std::string name = out.substr(i, end - i);
        ASSERT_NE(std::find(allowed.begin(), allowed.end(), name), allowed.end()) << "tag <" << out.substr(at, 20);
        // Attributes: ( name="value")* then '>'.
        while (end < out.size() && out[end] == ' ') {
            ASSERT_FALSE(endTag);
            const std::size_t eq = out.find("=\"", end);
            ASSERT_NE(eq, std::string::npos);
            const std::string attr = out.substr(end + 1, eq - end - 1);
            const std::size_t close = out.find('"', eq + 2);
            ASSERT_NE(close, std::string::npos);
            const std::string value = out.substr(eq + 2, close - eq - 2);
            EXPECT_EQ(value.find('<'), std::string::npos);
            const bool ok = (name == "a" && (attr == "href" || attr == "rel" || attr == "target")) ||
                            (name == "li" && attr == "data-list");
            EXPECT_TRUE(ok) << "attribute " << attr << " on <" << name << ">";
            if (attr == "href") {
                std::string url;
                for (const char c : value)
                    if (static_cast<unsigned char>(c) > 0x20) url += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                const std::size_t colon = url.find(':');
                if (colon != std::string::npos && colon < url.find_first_of("/?#")) {
                    const std::string scheme = url.substr(0, colon);
                    EXPECT_TRUE(scheme == "http" || scheme == "https" || scheme == "mailto") << "href " << value;
                }
            }
            if (attr == "rel") {
                EXPECT_EQ(value, "noopener noreferrer");
            }
            if (attr == "target") {
                EXPECT_EQ(value, "_blank");
            }
            end = close + 1;
        }
        ASSERT_LT(end, out.size());
        EXPECT_EQ(out[end], '>') << out.substr(at, 40);
    }
    EXPECT_EQ(out.find('\0'), std::string::npos);
}

// --- basics -----------------------------------------------------------------------------------------

TEST(HtmlSanitizer, EmptyInputGivesEmptyOutput) {
    EXPECT_EQ(sanitizeRichText(""), "");
}

TEST(HtmlSanitizer, PlainTextIsEscaped) {
    EXPECT_EQ(sanitizeRichText("a < b & c > d \"q\" 'a'"), "a &lt; b &amp; c &gt; d \"q\" 'a'");
}

TEST(HtmlSanitizer, EntitiesAreDecodedAndReEscaped) {
    EXPECT_EQ(sanitizeRichText("<p>&lt;b&gt; &amp;amp; &#169; &copy; &eacute;</p>"),
              "<p>&lt;b&gt; &amp;amp; \u00A9 \u00A9 \u00E9</p>");
}

TEST(HtmlSanitizer, NonAsciiPassesThrough) {
    const std::string html = "<p>T\u0101maki Makaurau \u2014 \u6771\u4EAC \U0001F600</p>";
    EXPECT_EQ(sanitizeRichText(html), html);
}

TEST(HtmlSanitizer, NoBreakSpaceIsWrittenAsEntity) {
    EXPECT_EQ(sanitizeRichText("<p>a&nbsp;b\u00A0c</p>"), "<p>a&nbsp;b&nbsp;c</p>");
}

TEST(HtmlSanitizer, CarriageReturnReferenceBecomesNewlineAndNulIsNeverOutput) {
    const std::string out = sanitizeRichText("<p>a&#13;b&#0;c</p>");
    EXPECT_EQ(out.find('\r'), std::string::npos);
    EXPECT_EQ(out.find('\0'), std::string::npos);
    EXPECT_EQ(out, "<p>a\nb\uFFFDc</p>");
}

TEST(HtmlSanitizer, InvalidUtf8BecomesReplacementCharacter) {
    EXPECT_EQ(sanitizeRichText("<p>a\xFF" "b</p>"), "<p>a\uFFFDb</p>");
}

// --- Quill output ------------------------------------------------------------------------------------

TEST(HtmlSanitizer, QuillOutputRoundTripsUnchanged) {
    const std::vector<std::string> samples = {
        "<h1>HHTraff Terminal</h1><h2>Field tools</h2><h3>Serial</h3>",
        "<p>Plain paragraph with <strong>bold</strong>, <em>italic</em>, <u>underline</u> and <s>strike</s>.</p>",
        "<p><br></p><p>After an empty line</p>",
        "<ol><li data-list=\"ordered\">First</li><li data-list=\"ordered\">Second</li></ol>",
        "<ol><li data-list=\"bullet\">RS-232</li><li data-list=\"bullet\">RS-485</li></ol>",
        "<ol><li data-list=\"checked\">Done</li><li data-list=\"unchecked\">Todo</li></ol>",
        "<ul><li>Bluetooth</li><li>USB <strong>and</strong> serial</li></ul>",
        "<p>Visit <a href=\"https://signalcraft.co.nz/docs?a=1&amp;b=2\" rel=\"noopener noreferrer\" "
        "target=\"_blank\">our docs</a> or <a href=\"mailto:sales@signalcraft.co.nz\" rel=\"noopener noreferrer\" "
        "target=\"_blank\">email us</a>.</p>",
        "<p>Works in T\u0101maki Makaurau&nbsp;and beyond &amp; more</p>",
        "<p><strong><em><u>nested</u></em></strong> <b>b</b> <i>i</i> <strike>old</strike></p>",
    };
    for (const std::string& html : samples) EXPECT_EQ(sanitizeRichText(html), html);
}

TEST(HtmlSanitizer, QuillUiSpanAndClassesAreRemoved) {
    EXPECT_EQ(sanitizeRichText("<ol><li data-list=\"bullet\" class=\"ql-indent-1\"><span class=\"ql-ui\" "
                               "contenteditable=\"false\"></span>One</li></ol>"),
              "<ol><li data-list=\"bullet\">One</li></ol>");
    EXPECT_EQ(sanitizeRichText("<p class=\"ql-align-center\" style=\"color:red\">x</p>"), "<p>x</p>");
}

// --- elements --------------------------------------------------------------------------------------------

TEST(HtmlSanitizer, DangerousElementsAreDroppedWithTheirContent) {
    EXPECT_EQ(sanitizeRichText("<p>a<script>alert(1)</script>b</p>"), "<p>ab</p>");
    EXPECT_EQ(sanitizeRichText("<style>p{color:red}</style>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<iframe src=\"https://evil.example\">x</iframe>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<object data=\"x\"><p>fallback</p></object>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<embed src=\"x.swf\">ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<template><p>t</p></template>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<noscript><p>n</p></noscript>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<svg onload=\"alert(1)\"><text>t</text></svg>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<math><mi>x</mi><mtext><p>p</p></mtext></math>ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<form action=\"/x\"><input value=\"v\"><textarea>t</textarea><select><option>o"
                               "</option></select><button>b</button>in form</form>"),
              "in form");
    EXPECT_EQ(sanitizeRichText("<title>t</title><meta http-equiv=\"refresh\" content=\"0;url=x\"><link rel=\"x\">ok"),
              "ok");
    EXPECT_EQ(sanitizeRichText("<video src=\"x\"><p>v</p></video><audio>a</audio><hr>ok"), "ok");
}

TEST(HtmlSanitizer, OtherElementsAreUnwrapped) {
    EXPECT_EQ(sanitizeRichText("<div><span style=\"color:red\">hi</span> <font color=\"red\">there</font></div>"),
              "hi there");
    EXPECT_EQ(sanitizeRichText("<table><tr><td>a</td><td>b</td></tr></table>"), "ab");
    EXPECT_EQ(sanitizeRichText("<blockquote><p>q</p></blockquote><h4>h4</h4><custom-el>c</custom-el>"),
              "<p>q</p>h4c");
    EXPECT_EQ(sanitizeRichText("<xmp><b>x</b></xmp>"), "&lt;b&gt;x&lt;/b&gt;");
}

TEST(HtmlSanitizer, CommentsAreDropped) {
    EXPECT_EQ(sanitizeRichText("<p>a<!-- secret -->b</p>"), "<p>ab</p>");
    EXPECT_EQ(sanitizeRichText("<!--<script>alert(1)</script>-->ok"), "ok");
    EXPECT_EQ(sanitizeRichText("<p>a<!--b--!>c</p>"), "<p>ac</p>");
    // "<!-->" closes the comment at once: the script after it is a real element, and is dropped.
    EXPECT_EQ(sanitizeRichText("<!--><script>alert(1)</script>x"), "x");
    // In HTML content CDATA is a bogus comment ending at the first '>'; the rest is text.
    EXPECT_EQ(sanitizeRichText("<![CDATA[<script>alert(1)</script>]]>x"), "alert(1)]]&gt;x");
}

// --- attributes ------------------------------------------------------------------------------------------

TEST(HtmlSanitizer, EventHandlersAndUnknownAttributesAreRemoved) {
    EXPECT_EQ(sanitizeRichText("<p onclick=\"alert(1)\" id=\"x\" class=\"c\">hi</p>"), "<p>hi</p>");
    EXPECT_EQ(sanitizeRichText("<strong onmouseover=alert(1)>b</strong>"), "<strong>b</strong>");
    EXPECT_EQ(sanitizeRichText("<a href=\"/x\" onclick=\"alert(1)\" style=\"x\" download>l</a>"),
              "<a href=\"/x\" rel=\"noopener noreferrer\">l</a>");
    EXPECT_EQ(sanitizeRichText("<img src=x onerror=alert(1)>"), "");
    EXPECT_EQ(sanitizeRichText("<p><img src=\"x\" onerror=\"alert(1)\">after</p>"), "<p>after</p>");
}

TEST(HtmlSanitizer, LinkRelIsAlwaysSetAndTargetOnlyBlank) {
    EXPECT_EQ(sanitizeRichText("<a href=\"https://x.nz\" rel=\"opener\">l</a>"),
              "<a href=\"https://x.nz\" rel=\"noopener noreferrer\">l</a>");
    EXPECT_EQ(sanitizeRichText("<a href=\"https://x.nz\" target=\"_BLANK\">l</a>"),
              "<a href=\"https://x.nz\" rel=\"noopener noreferrer\" target=\"_blank\">l</a>");
    EXPECT_EQ(sanitizeRichText("<a href=\"https://x.nz\" target=\"_top\">l</a>"),
              "<a href=\"https://x.nz\" rel=\"noopener noreferrer\">l</a>");
    EXPECT_EQ(sanitizeRichText("<a href=\"https://x.nz\" target=\"evil\">l</a>"),
              "<a href=\"https://x.nz\" rel=\"noopener noreferrer\">l</a>");
}

TEST(HtmlSanitizer, AllowedHrefsAreKept) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"https://signalcraft.co.nz/a?b=1&c=2#d", "https://signalcraft.co.nz/a?b=1&amp;c=2#d"},
        {"HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM"},
        {"mailto:sales@signalcraft.co.nz", "mailto:sales@signalcraft.co.nz"},
        {"/product/hhtraff", "/product/hhtraff"},
        {"#features", "#features"},
        {"?page=2", "?page=2"},
        {"docs/manual.pdf", "docs/manual.pdf"},
        {"//cdn.example.com/x", "//cdn.example.com/x"},
        {"/search?q=a:b", "/search?q=a:b"},
        {"  https://x.nz/\n", "https://x.nz/"},
        {"https://x.nz/a\tb\nc", "https://x.nz/abc"}, // the browser ignores tabs and newlines in URLs
        {"https://x.nz/\"onmouseover=\"alert(1)", "https://x.nz/&quot;onmouseover=&quot;alert(1)"},
        {"https://x.nz/<script>", "https://x.nz/&lt;script&gt;"},
    };
    for (const auto& [href, expected] : cases) {
        SCOPED_TRACE(href);
        std::string input = "<a href=\"";
        for (const char c : href) input += c == '"' ? std::string("&quot;") : std::string(1, c);
        input += "\">l</a>";
        EXPECT_EQ(sanitizeRichText(input), "<a href=\"" + expected + "\" rel=\"noopener noreferrer\">l</a>");
    }
}

TEST(HtmlSanitizer, DangerousHrefsUnwrapTheLink) {
    const std::vector<std::string> hrefs = {
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "\x01\x02javascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java&#x09;script:alert(1)",
        "jav&#x0A;ascript:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "&#0000106avascript:alert(1)",
        "javascript&colon;alert(1)",
        "&#x20;javascript:alert(1)",
        "\xC2\xA0javascript:alert(1)",
        "javascript://%0aalert(1)",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "DATA:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "about:blank",
        "",
        "   ",
        "java\x7Fscript:alert(1)",
    };
    for (const std::string& href : hrefs) {
        SCOPED_TRACE(href);
        const std::string input = "<p><a href=\"" + href + "\">link</a></p>";
        const std::string out = sanitizeRichText(input);
        EXPECT_EQ(out, "<p>link</p>");
        expectSafe(input, out);
    }
    EXPECT_EQ(sanitizeRichText("<a>no href</a>"), "no href");
    EXPECT_EQ(sanitizeRichText("<a href=javascript:alert(1)>unquoted</a>"), "unquoted");
}

TEST(HtmlSanitizer, ListItemDataListOnlyWithQuillValues) {
    EXPECT_EQ(sanitizeRichText("<ol><li data-list=\"evil\">x</li></ol>"), "<ol><li>x</li></ol>");
    EXPECT_EQ(sanitizeRichText("<ol><li data-list=\"BULLET\">x</li></ol>"), "<ol><li>x</li></ol>");
    EXPECT_EQ(sanitizeRichText("<ol><li data-list=\"bullet\" data-x=\"1\" value=\"3\">x</li></ol>"),
              "<ol><li data-list=\"bullet\">x</li></ol>");
    EXPECT_EQ(sanitizeRichText("<p data-list=\"bullet\">x</p>"), "<p>x</p>");
}

// --- malformed and structural -------------------------------------------------------------------------

TEST(HtmlSanitizer, MalformedMarkupIsRepairedAsABrowserWould) {
    EXPECT_EQ(sanitizeRichText("<p>unclosed"), "<p>unclosed</p>");
    EXPECT_EQ(sanitizeRichText("<b><i>x</b></i>"), "<b><i>x</i></b>");
    EXPECT_EQ(sanitizeRichText("<ul><li>a<li>b</ul>"), "<ul><li>a</li><li>b</li></ul>");
    EXPECT_EQ(sanitizeRichText("<p>a<p>b"), "<p>a</p><p>b</p>");
    EXPECT_EQ(sanitizeRichText("</p>x"), "<p></p>x");
    EXPECT_EQ(sanitizeRichText("<scr<script>ipt>alert(1)</script>"), "ipt&gt;alert(1)");
    EXPECT_EQ(sanitizeRichText("<<script>script>alert(1)<</script>/script>"), "&lt;/script&gt;");
    EXPECT_EQ(sanitizeRichText("<p>x</p\n>y"), "<p>x</p>y");
    EXPECT_EQ(sanitizeRichText("<script>alert(1)"), "");
    EXPECT_EQ(sanitizeRichText("<body onload=alert(1)><p>x</p></body>"), "<p>x</p>");
    EXPECT_EQ(sanitizeRichText("<html><head><script>x</script></head><body>b</body></html>"), "b");
}

TEST(HtmlSanitizer, StructuralRulesKeepTheOutputStable) {
    // A heading inside a heading (possible through an unwrapped span) is unwrapped.
    EXPECT_EQ(sanitizeRichText("<h1><span><h2>x</h2></span></h1>"), "<h1>x</h1>");
    // A list item outside a list is only text.
    EXPECT_EQ(sanitizeRichText("<li>orphan</li>"), "orphan");
    EXPECT_EQ(sanitizeRichText("<ul><b><li>x</li></b></ul>"), "<ul><b>x</b></ul>");
    // Blocks inside a paragraph (via an unwrapped element that the parser lets contain them).
    EXPECT_EQ(sanitizeRichText("<p><marquee><p>inner</p><ul><li>i</li></ul></marquee></p>"), "<p>inneri</p>");
    // Nested lists are fine.
    EXPECT_EQ(sanitizeRichText("<ul><li>a<ol><li>b</li></ol></li></ul>"), "<ul><li>a<ol><li>b</li></ol></li></ul>");
    // A link never contains a link.
    const std::string nested = sanitizeRichText("<a href=\"/a\">x<div><a href=\"/b\">y</a></div></a>");
    EXPECT_EQ(nested.find("<a href=\"/b\""), nested.rfind("<a "));
    EXPECT_EQ(sanitizeRichText(nested), nested);
}

TEST(HtmlSanitizer, NestingDepthIsCapped) {
    std::string deep;
    for (int i = 0; i < 100; ++i) deep += "<b>";
    deep += "x";
    const std::string out = sanitizeRichText(deep);
    EXPECT_EQ(count(out, "<b>"), kMaxRichTextDepth);
    EXPECT_EQ(count(out, "</b>"), kMaxRichTextDepth);
    EXPECT_NE(out.find('x'), std::string::npos);
    EXPECT_EQ(sanitizeRichText(out), out);
}

TEST(HtmlSanitizer, DeeplyNestedUnwrappedElementsDoNotOverflow) {
    std::string deep;
    for (std::size_t i = 0; i < kMaxRichTextTags; ++i) deep += "<div>";
    deep += "bottom";
    EXPECT_EQ(sanitizeRichText(deep), "bottom");
}

// --- XSS vectors and idempotency ----------------------------------------------------------------------

const std::vector<std::string>& xssVectors() {
    static const std::vector<std::string> vectors = {
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<img src=\"x\" onerror=\"alert(1)\"/>",
        "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>",
        "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
        "<body onload=alert(1)>",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
        "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>",
        "<a href=\"data:text/html,<script>alert(1)</script>\">x</a>",
        "<a href=x onmouseover=alert(1)>x</a>",
        "<p title=\"</p><script>alert(1)</script>\">x</p>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
        "<style><img src=x onerror=alert(1)></style>",
        "<textarea><img src=x onerror=alert(1)></textarea>",
        "<title><img src=x onerror=alert(1)></title>",
        "<template><script>alert(1)</script></template>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<embed src=\"javascript:alert(1)\">",
        "<form><button formaction=javascript:alert(1)>x</button></form>",
        "<input onfocus=alert(1) autofocus>",
        "<details open ontoggle=alert(1)>",
        "<video><source onerror=alert(1)></video>",
        "<!--<img src=x onerror=alert(1)>-->",
        "<!--><img src=x onerror=alert(1)>-->",
        "<!---><img src=x onerror=alert(1)>-->",
        "<? ><img src=x onerror=alert(1)> ?>",
        "<p><scr<script>ipt>alert(1)</scr</script>ipt></p>",
        "<b><i><u>unclosed <a href=\"/x\">link",
        "</script><script>alert(1)</script>",
        "<a href=\"/x\"><a href=\"javascript:alert(1)\">y</a></a>",
        "<table><tr><td><p>cell<script>alert(1)</script></td></tr></table>",
        "<select><option><img src=x onerror=alert(1)></option></select>",
        "<isindex action=javascript:alert(1) type=image>",
        "<base href=\"javascript:alert(1)//\">",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<link rel=import href=\"data:text/html,<script>alert(1)</script>\">",
        "<plaintext><img src=x onerror=alert(1)>",
        "<xmp></xmp><img src=x onerror=alert(1)>",
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
        "<h1><span><h2>x</h2></span></h1>",
        "<p><marquee><p>x</p></marquee></p>",
        "<li><li>x",
        "<ol><li><ol><li><ol><li>deep</li></ol></li></ol></li></ol>",
    };
    return vectors;
}

TEST(HtmlSanitizer, XssVectorsAreNeutralised) {
    for (const std::string& v : xssVectors()) expectSafe(v, sanitizeRichText(v));
}

TEST(HtmlSanitizer, SanitisingIsIdempotent) {
    for (const std::string& v : xssVectors()) {
        const std::string once = sanitizeRichText(v);
        EXPECT_EQ(sanitizeRichText(once), once) << "input: " << v;
    }
}

TEST(HtmlSanitizer, SanitisingIsDeterministic) {
    for (const std::string& v : xssVectors()) EXPECT_EQ(sanitizeRichText(v), sanitizeRichText(v));
}

// Random soup of tags, attributes, entities and text (fixed seed): output is safe and a fixed point.
TEST(HtmlSanitizer, RandomMarkupIsSafeAndIdempotent) {
    static const std::vector<std::string> pieces = {
        "<p>", "</p>", "<h1>", "</h1>", "<h2>", "<h3>", "</h3>", "<b>", "</b>", "<strong>", "<i>", "</i>",
        "<em>", "<u>", "</u>", "<s>", "<strike>", "<ol>", "</ol>", "<ul>", "</ul>", "<li>", "</li>",
        "<li data-list=\"bullet\">", "<a href=\"/x\">", "<a href=\"javascript:alert(1)\">", "</a>",
        "<a href=\"https://x.nz\" target=\"_blank\">", "<br>", "<div>", "</div>", "<span>", "</span>", "<table>",
        "<td>", "</table>", "<script>", "</script>", "<svg>", "</svg>", "<img src=x onerror=alert(1)>",
        "<!--", "-->", "<button>", "</button>", "<marquee>", "</marquee>", "<object>", "</object>", "<font>",
        "text", " ", "\n", "&amp;", "&nbsp;", "&lt;", "<", ">", "\"", "T\u0101maki", "<textarea>", "</textarea>",
        "<p onclick=x>", "<select>", "<option>", "<math>", "</math>", "<template>", "</template>", "<xmp>",
    };
    std::mt19937 rng(20251023);
    std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
    std::uniform_int_distribution<int> length(1, 40);
    for (int round = 0; round < 3000; ++round) {
        std::string input;
        for (int n = length(rng); n > 0; --n) input += pieces[pick(rng)];
        const std::string once = sanitizeRichText(input);
        expectSafe(input, once);
        ASSERT_EQ(sanitizeRichText(once), once) << "input: " << input;
    }
}

// --- limits -------------------------------------------------------------------------------------------

TEST(HtmlSanitizer, InputOverTheByteLimitThrows) {
    const std::string atLimit(kMaxRichTextBytes, 'a');
    EXPECT_TRUE(richTextWithinLimits(atLimit));
    EXPECT_EQ(sanitizeRichText(atLimit), atLimit);
    const std::string over(kMaxRichTextBytes + 1, 'a');
    EXPECT_FALSE(richTextWithinLimits(over));
    EXPECT_THROW(sanitizeRichText(over), std::invalid_argument);
}

TEST(HtmlSanitizer, InputWithTooManyTagsThrows) {
    std::string ok;
    for (std::size_t i = 0; i < kMaxRichTextTags; ++i) ok += "<b>";
    EXPECT_TRUE(richTextWithinLimits(ok));
    EXPECT_NO_THROW(sanitizeRichText(ok));
    EXPECT_THROW(sanitizeRichText(ok + "<i>"), std::invalid_argument);
    EXPECT_NO_THROW(sanitizeRichText(ok + "</b> a < b")); // "< " and end tags do not count
}

TEST(HtmlSanitizer, LimitPrefixNeverSplitsUtf8) {
    std::string text(kMaxRichTextBytes - 1, 'a');
    text += "\u0101"; // two bytes straddling the limit
    const std::size_t prefix = richTextLimitPrefix(text);
    EXPECT_EQ(prefix, kMaxRichTextBytes - 1);

    std::string tags;
    for (std::size_t i = 0; i < kMaxRichTextTags + 5; ++i) tags += "<i>";
    EXPECT_EQ(richTextLimitPrefix(tags), kMaxRichTextTags * 3);
    EXPECT_EQ(richTextLimitPrefix("short"), 5u);
}

} // namespace

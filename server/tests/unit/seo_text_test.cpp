#include "seo/text.h"

#include <gtest/gtest.h>

#include <string>

#include "catalog/html_sanitizer.h"

namespace {

using storefront::seo::escapeHtml;
using storefront::seo::jsonForScript;
using storefront::seo::metaDescription;
using storefront::seo::plainText;
using storefront::seo::truncateText;

std::size_t codePoints(const std::string& s) {
    std::size_t n = 0;
    for (const char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    return n;
}

// Strict UTF-8 check (no truncated or stray sequences).
bool validUtf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > s.size()) return false;
        for (std::size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += len;
    }
    return true;
}

const std::string kEllipsis = "\u2026";

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// --- plainText -----------------------------------------------------------------------------------------

TEST(PlainText, RemovesTagsAndSeparatesBlocks) {
    EXPECT_EQ(plainText("<h1>Title</h1><p>First</p><p>Second</p>"), "Title First Second");
    EXPECT_EQ(plainText("<ul><li>One</li><li>Two</li></ul>"), "One Two");
    EXPECT_EQ(plainText("line<br>break"), "line break");
    EXPECT_EQ(plainText("<div>a</div><div>b</div>"), "a b");
}

TEST(PlainText, InlineElementsDoNotBreakWords) {
    EXPECT_EQ(plainText("<p><strong>T\u0101</strong>maki <em>Makau</em>rau</p>"), "T\u0101maki Makaurau");
    EXPECT_EQ(plainText("<a href=\"/x\">link</a>ed"), "linked");
}

TEST(PlainText, DecodesEntities) {
    EXPECT_EQ(plainText("&lt;b&gt; &amp; &quot;q&quot; &#39;s&#39; &eacute; &#x1F600;"),
              "<b> & \"q\" 's' \u00E9 \U0001F600");
}

TEST(PlainText, CollapsesAndTrimsWhitespace) {
    EXPECT_EQ(plainText("  \n<p>  a \t\n b&nbsp;&nbsp;c\u2003d  </p>\n "), "a b c d");
    EXPECT_EQ(plainText("<p> </p><p>\n</p>"), "");
}

TEST(PlainText, IgnoresNonVisibleContent) {
    EXPECT_EQ(plainText("a<script>var x = '<p>';</script>b<style>p{}</style>c<!-- note -->d<template>t</template>"),
              "abcd");
    EXPECT_EQ(plainText("<svg><text>svg</text></svg>x<textarea>t</textarea><noscript>n</noscript>"), "x");
}

TEST(PlainText, EmptyAndInvalidInput) {
    EXPECT_EQ(plainText(""), "");
    const std::string out = plainText("a\xFF\xFE" "b");
    EXPECT_TRUE(validUtf8(out));
    EXPECT_EQ(out, "a\uFFFD\uFFFDb");
}

TEST(PlainText, OversizedInputIsReadUpToTheLimitWithoutThrowing) {
    std::string html(storefront::catalog::kMaxRichTextBytes + 100, 'a');
    html.replace(0, 3, "<p>");
    std::string out;
    EXPECT_NO_THROW(out = plainText(html));
    EXPECT_EQ(out.size(), storefront::catalog::kMaxRichTextBytes - 3);
}

// --- metaDescription ---------------------------------------------------------------------------------

TEST(MetaDescription, ShortTextIsUnchanged) {
    EXPECT_EQ(metaDescription("<p>Field tools for <b>serial</b> equipment.</p>"), "Field tools for serial equipment.");
    EXPECT_EQ(metaDescription(""), "");
}

TEST(MetaDescription, TextOfExactlyMaxCharsIsNotCut) {
    const std::string exact(160, 'x');
    EXPECT_EQ(metaDescription(exact), exact);
    const std::string over(161, 'x');
    const std::string cut = metaDescription(over);
    EXPECT_EQ(codePoints(cut), 160u);
    EXPECT_TRUE(endsWith(cut, kEllipsis));
}

TEST(MetaDescription, CutsAtAWordBoundaryWithinTheLimit) {
    std::string text;
    while (text.size() < 400) text += "serial terminal ";
    const std::string d = metaDescription("<p>" + text + "</p>");
    EXPECT_LE(codePoints(d), 160u);
    EXPECT_TRUE(endsWith(d, kEllipsis));
    const std::string body = d.substr(0, d.size() - kEllipsis.size());
    EXPECT_TRUE(endsWith(body, "serial") || endsWith(body, "terminal")) << d;
    EXPECT_EQ(text.rfind(body, 0), 0u) << "must be a prefix of the text";
}

TEST(MetaDescription, CountsCodePointsNotBytesWithMacrons) {
    // "Tāmaki Makaurau " is 16 code points but 17 bytes; 20 repetitions = 320 code points.
    std::string text;
    for (int i = 0; i < 20; ++i) text += "T\u0101maki Makaurau ";
    const std::string d = metaDescription("<p>" + text + "</p>");
    EXPECT_TRUE(validUtf8(d));
    EXPECT_LE(codePoints(d), 160u);
    EXPECT_GT(d.size(), 160u) << "more bytes than code points: the limit is not in bytes";
    EXPECT_GE(codePoints(d), 140u) << "should use most of the budget";
    EXPECT_EQ(d.substr(0, d.size() - kEllipsis.size()).back(), 'u'); // ends on a whole word
    EXPECT_TRUE(endsWith(d, "Makaurau" + kEllipsis)) << d;
}

TEST(MetaDescription, MultiByteTextIsNeverSplit) {
    // 200 ā characters (2 bytes each) with no spaces: a hard cut at 159 code points + ellipsis.
    std::string word;
    for (int i = 0; i < 200; ++i) word += "\u0101";
    const std::string d = metaDescription(word);
    EXPECT_TRUE(validUtf8(d));
    EXPECT_EQ(codePoints(d), 160u);
    EXPECT_EQ(d.size(), 159u * 2 + kEllipsis.size());

    // Four-byte characters.
    std::string emoji;
    for (int i = 0; i < 170; ++i) emoji += "\U0001F600";
    const std::string e = metaDescription(emoji);
    EXPECT_TRUE(validUtf8(e));
    EXPECT_EQ(codePoints(e), 160u);
}

TEST(MetaDescription, DoesNotSeparateACombiningMark) {
    // Decomposed "ā" (a + U+0304) placed so that the hard cut would fall between the two.
    std::string word(158, 'a');
    word += "a\u0304";
    word += std::string(10, 'b');
    const std::string d = metaDescription(word);
    EXPECT_TRUE(validUtf8(d));
    EXPECT_LE(codePoints(d), 160u);
    const std::string body = d.substr(0, d.size() - kEllipsis.size());
    EXPECT_EQ(body, std::string(158, 'a'));
}

TEST(MetaDescription, TrailingPunctuationIsRemovedBeforeTheEllipsis) {
    std::string text(150, 'x');
    text += ", abcdefghijklmnop qrs"; // the cut falls inside the long word, after ", "
    const std::string d = metaDescription(text, 160);
    EXPECT_EQ(d, std::string(150, 'x') + kEllipsis);
}

TEST(MetaDescription, CustomAndTinyLimits) {
    EXPECT_EQ(metaDescription("alpha beta gamma", 11), "alpha beta" + kEllipsis);
    EXPECT_EQ(metaDescription("alpha beta gamma", 10), "alpha" + kEllipsis);
    EXPECT_EQ(metaDescription("alpha beta gamma", 1), kEllipsis);
    EXPECT_EQ(metaDescription("alpha beta gamma", 0), "");
    EXPECT_EQ(metaDescription("alpha beta gamma", 16), "alpha beta gamma");
}

TEST(TruncateText, TreatsInputAsPlainText) {
    EXPECT_EQ(truncateText("a <b> &amp;  c"), "a <b> &amp; c");
    EXPECT_EQ(truncateText("one two three", 8), "one two" + kEllipsis);
}

// --- escapeHtml ------------------------------------------------------------------------------------------

TEST(EscapeHtml, EscapesTheFiveSpecialCharacters) {
    EXPECT_EQ(escapeHtml("<a href=\"x\" title='y'>&</a>"),
              "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    EXPECT_EQ(escapeHtml("&amp;"), "&amp;amp;");
    EXPECT_EQ(escapeHtml("T\u0101maki \u2014 ok"), "T\u0101maki \u2014 ok");
    EXPECT_EQ(escapeHtml(""), "");
}

// --- jsonForScript -----------------------------------------------------------------------------------------

TEST(JsonForScript, EscapesCharactersThatCouldEndTheScriptElement) {
    const nlohmann::json value = {{"name", "</script><script>alert(1)</script><!-- & -->"}};
    const std::string out = jsonForScript(value);
    EXPECT_EQ(out.find('<'), std::string::npos);
    EXPECT_EQ(out.find('>'), std::string::npos);
    EXPECT_EQ(out.find('&'), std::string::npos);
    EXPECT_NE(out.find("\\u003c/script\\u003e"), std::string::npos);
    EXPECT_NE(out.find("\\u0026"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(out), value);
}

TEST(JsonForScript, EscapesLineAndParagraphSeparators) {
    const nlohmann::json value = {{"t", "a\u2028b\u2029c \u2027 \u202A"}};
    const std::string out = jsonForScript(value);
    EXPECT_EQ(out, "{\"t\":\"a\\u2028b\\u2029c \u2027 \u202A\"}");
    EXPECT_EQ(nlohmann::json::parse(out), value);
}

TEST(JsonForScript, KeepsOtherUnicodeAndStructure) {
    const nlohmann::json value = {{"city", "T\u0101maki Makaurau"}, {"n", 4900}, {"ok", true}, {"x", nullptr},
                                  {"list", {1, "two"}}};
    const std::string out = jsonForScript(value);
    EXPECT_NE(out.find("T\u0101maki"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(out), value);
}

TEST(JsonForScript, InvalidUtf8IsReplacedNotThrown) {
    const nlohmann::json value = {{"bad", std::string("a\xFF" "b")}};
    std::string out;
    EXPECT_NO_THROW(out = jsonForScript(value));
    EXPECT_EQ(nlohmann::json::parse(out)["bad"], "a\uFFFDb");
}

} // namespace

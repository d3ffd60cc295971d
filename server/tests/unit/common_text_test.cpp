// The one single-line rule (common::isOneLine) and the body readers that apply it (issue 32):
// every field that ends up in a mail header, a file name or a CSV line refuses CR, LF, NUL and
// the other control characters.
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using storefront::common::isOneLine;

TEST(OneLine, PlainTextAndUnicodeAreOneLine) {
    EXPECT_TRUE(isOneLine(""));
    EXPECT_TRUE(isOneLine("Waka Traffic Ltd"));
    EXPECT_TRUE(isOneLine("Tāmaki Makaurau — 🥝"));
    EXPECT_TRUE(isOneLine("\xC2\xA0no-break space and \xC2\xA9"));
}

TEST(OneLine, ControlCharactersAndLineSeparatorsAreNot) {
    for (const std::string& bad : std::vector<std::string>{"a\rb", "a\nb", "a\r\nBcc: x@example.nz", std::string("a\0b", 3), "a\tb", "a\x7f",
                                  "a\x1b[31m", "a\xC2\x85" "b" /* U+0085 NEL */, "a\xC2\x9F" /* U+009F */,
                                  "a\xE2\x80\xA8" "b" /* U+2028 */, "a\xE2\x80\xA9" "b" /* U+2029 */})
        EXPECT_FALSE(isOneLine(bad)) << bad;
}

TEST(OneLine, BodyLinesNameTheFieldAndTrim) {
    storefront::http::Body body(nlohmann::json{{"company_name", "Acme\r\nBcc: x@example.nz"},
                                               {"carrier", " NZ Post "},
                                               {"name", "a\nb"},
                                               {"empty", "  "}});
    EXPECT_EQ(body.requiredLine("company_name", 200), "");
    EXPECT_EQ(body.optLine("carrier", 60), std::optional<std::string>("NZ Post"));
    EXPECT_EQ(body.optLine("name", 60), std::nullopt);
    EXPECT_EQ(body.optLine("empty", 60), std::nullopt);
    EXPECT_EQ(body.optLine("absent", 60), std::nullopt);
    ASSERT_TRUE(body.errors().contains("company_name"));
    ASSERT_TRUE(body.errors().contains("name"));
    EXPECT_FALSE(body.errors().contains("carrier"));
    try {
        body.check();
        FAIL() << "no 422";
    } catch (const storefront::http::ApiError& e) {
        EXPECT_EQ(e.status(), 422);
        EXPECT_TRUE(e.fields.contains("company_name"));
    }
}

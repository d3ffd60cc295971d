// http::Body: the one reader of JSON request bodies.
#include "http/api_error.h"
#include "http/body.h"

#include <gtest/gtest.h>

using storefront::http::ApiError;
using storefront::http::Body;

TEST(HttpBody, ReadsTypedMembersAndCollectsEveryFieldProblemIntoOne422) {
    Body body(nlohmann::json{{"name", "  Widget  "}, {"stock", "7"}, {"active", 1}, {"count", 3}, {"note", nullptr}});
    EXPECT_EQ(body.requiredText("name", 10), "Widget");
    EXPECT_EQ(body.optInteger("stock"), std::nullopt);
    EXPECT_EQ(body.optBoolean("active"), std::nullopt);
    EXPECT_EQ(body.optInteger("count"), 3);
    EXPECT_EQ(body.optText("note"), std::nullopt);
    EXPECT_EQ(body.requiredText("missing", 10), "");
    EXPECT_FALSE(body.ok());
    try {
        body.check();
        FAIL() << "expected a validation error";
    } catch (const ApiError& e) {
        EXPECT_EQ(e.status(), 422);
        EXPECT_EQ(e.code(), "validation_failed");
        EXPECT_EQ(e.fields, nlohmann::json({{"stock", "Must be a whole number."},
                                            {"active", "Must be true or false."},
                                            {"missing", "This field is required."}}));
    }
}

TEST(HttpBody, TheFirstMessageForAFieldIsKept) {
    Body body(nlohmann::json{{"slug", 5}});
    (void)body.optText("slug");
    body.fail("slug", "Already taken.");
    EXPECT_TRUE(body.failed("slug"));
    try {
        body.check();
        FAIL();
    } catch (const ApiError& e) {
        EXPECT_EQ(e.fields["slug"], "Must be text.");
    }
}

TEST(HttpBody, LimitsAreCountedInCharactersNotBytes) {
    Body body(nlohmann::json{{"name", "\u0101\u0101\u0101"}, {"long", "abcd"}});
    EXPECT_EQ(body.requiredText("name", 3), "\u0101\u0101\u0101");
    (void)body.requiredText("long", 3);
    EXPECT_FALSE(body.ok());
    EXPECT_TRUE(body.failed("long"));
    EXPECT_FALSE(body.failed("name"));
}

TEST(HttpBody, GoTrueStyleAnswersTheFirstProblemAs400WithItsSentence) {
    Body body(nlohmann::json{{"email", 42}}, Body::Style::GoTrue);
    try {
        (void)body.optText("email");
        FAIL();
    } catch (const ApiError& e) {
        EXPECT_EQ(e.status(), 400);
        EXPECT_EQ(e.code(), "validation_failed");
        EXPECT_STREQ(e.what(), "email must be a string");
    }
}

TEST(HttpBody, IntegersBeyondInt64AndOversizedObjectsAreRefused) {
    Body body(nlohmann::json{{"n", std::uint64_t{18446744073709551615ULL}}, {"meta", {{"k", std::string(100, 'x')}}}});
    EXPECT_EQ(body.optInteger("n"), std::nullopt);
    EXPECT_EQ(body.object("meta", 50), nlohmann::json::object());
    EXPECT_TRUE(body.failed("n"));
    EXPECT_TRUE(body.failed("meta"));
}

TEST(HttpBody, ABodyMustBeAnObject) { EXPECT_THROW(Body(nlohmann::json::array()), ApiError); }

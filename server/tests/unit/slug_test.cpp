#include "catalog/slug.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using storefront::catalog::isValidSlug;
using storefront::catalog::normalizeSlug;

TEST(NormalizeSlug, LowerCasesAndHyphenatesWhitespace) {
    EXPECT_EQ(normalizeSlug("HHTraff"), "hhtraff");
    EXPECT_EQ(normalizeSlug("USB Cable"), "usb-cable");
    EXPECT_EQ(normalizeSlug("My   Product\tName\nTwo"), "my-product-name-two");
    EXPECT_EQ(normalizeSlug("already-fine"), "already-fine");
    EXPECT_EQ(normalizeSlug(""), "");
}

TEST(NormalizeSlug, TrimsLeadingAndTrailingWhitespace) {
    EXPECT_EQ(normalizeSlug("  Wire Write  "), "wire-write");
    EXPECT_EQ(normalizeSlug(" \t\n "), "");
}

TEST(NormalizeSlug, UnicodeWhitespaceCountsAsWhitespace) {
    EXPECT_EQ(normalizeSlug("a\u00A0b\u2003c\u3000d\uFEFFe"), "a-b-c-d-e");
}

TEST(NormalizeSlug, LeavesOtherCharactersForValidationToReject) {
    EXPECT_EQ(normalizeSlug("Caf\u00C9 #1"), "caf\u00C9-#1");
    EXPECT_FALSE(isValidSlug(normalizeSlug("Caf\u00C9 #1")));
    EXPECT_EQ(normalizeSlug("a - b"), "a---b"); // as the original form did
}

TEST(IsValidSlug, AcceptsLowerCaseDigitsAndInnerHyphens) {
    EXPECT_TRUE(isValidSlug("hhtraff"));
    EXPECT_TRUE(isValidSlug("usb-cable"));
    EXPECT_TRUE(isValidSlug("rs-485-adapter-2"));
    EXPECT_TRUE(isValidSlug("a"));
    EXPECT_TRUE(isValidSlug("9"));
    EXPECT_TRUE(isValidSlug("a--b"));
    EXPECT_TRUE(isValidSlug(std::string(100, 'a')));
}

TEST(IsValidSlug, RejectsEverythingElse) {
    EXPECT_FALSE(isValidSlug(""));
    EXPECT_FALSE(isValidSlug(std::string(101, 'a')));
    EXPECT_FALSE(isValidSlug("-lead"));
    EXPECT_FALSE(isValidSlug("trail-"));
    EXPECT_FALSE(isValidSlug("-"));
    EXPECT_FALSE(isValidSlug("Upper"));
    EXPECT_FALSE(isValidSlug("with space"));
    EXPECT_FALSE(isValidSlug("under_score"));
    EXPECT_FALSE(isValidSlug("dot.dot"));
    EXPECT_FALSE(isValidSlug("../etc"));
    EXPECT_FALSE(isValidSlug("a/b"));
    EXPECT_FALSE(isValidSlug("%2e%2e"));
    EXPECT_FALSE(isValidSlug("t\u0101maki"));
    EXPECT_FALSE(isValidSlug(std::string("a\0b", 3)));
}

} // namespace

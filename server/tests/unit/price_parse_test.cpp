#include "catalog/money.h"

#include <gtest/gtest.h>

namespace {

using storefront::catalog::parseMajorUnits;

TEST(ParseMajorUnits, ParsesExactlyWithoutFloatingPoint) {
    EXPECT_EQ(parseMajorUnits("19.99"), 1999);
    EXPECT_EQ(parseMajorUnits("0.1"), 10);
    EXPECT_EQ(parseMajorUnits("0.01"), 1);
    EXPECT_EQ(parseMajorUnits("7"), 700);
    EXPECT_EQ(parseMajorUnits("0"), 0);
    EXPECT_EQ(parseMajorUnits("0.00"), 0);
    EXPECT_EQ(parseMajorUnits("1.10"), 110);
    EXPECT_EQ(parseMajorUnits("4.35"), 435);   // 4.35 * 100 is 434.99999... in binary floating point
    EXPECT_EQ(parseMajorUnits("1000000"), 100000000);
}

TEST(ParseMajorUnits, RejectsAnythingButPlainDigitsWithTwoDecimals) {
    for (const char* bad : {"0.005", "-1", "-0.01", "+1", "1e3", "1E3", "", ".5", "5.", " 5", "5 ", "1,000", "1.2.3",
                            "abc", "0x10", "NaN", "inf", "1000000.01", "9999999999", "99999999999999999999999"})
        EXPECT_FALSE(parseMajorUnits(bad).has_value()) << bad;
}

} // namespace

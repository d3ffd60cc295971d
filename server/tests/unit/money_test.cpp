#include "catalog/money.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

using storefront::catalog::formatMinorUnits;
using storefront::catalog::formatNzd;

TEST(FormatMinorUnits, TwoDecimalPlacesWithoutGrouping) {
    EXPECT_EQ(formatMinorUnits(4900), "49.00");
    EXPECT_EQ(formatMinorUnits(0), "0.00");
    EXPECT_EQ(formatMinorUnits(5), "0.05");
    EXPECT_EQ(formatMinorUnits(10), "0.10");
    EXPECT_EQ(formatMinorUnits(99), "0.99");
    EXPECT_EQ(formatMinorUnits(100), "1.00");
    EXPECT_EQ(formatMinorUnits(123456), "1234.56");
    EXPECT_EQ(formatMinorUnits(600), "6.00");
}

TEST(FormatMinorUnits, Negative) {
    EXPECT_EQ(formatMinorUnits(-5), "-0.05");
    EXPECT_EQ(formatMinorUnits(-4900), "-49.00");
    EXPECT_EQ(formatMinorUnits(-123456), "-1234.56");
}

TEST(FormatMinorUnits, Extremes) {
    EXPECT_EQ(formatMinorUnits(std::numeric_limits<std::int64_t>::max()), "92233720368547758.07");
    EXPECT_EQ(formatMinorUnits(std::numeric_limits<std::int64_t>::min()), "-92233720368547758.08");
}

TEST(FormatNzd, DollarSignAndThousandsSeparators) {
    EXPECT_EQ(formatNzd(4900), "$49.00");
    EXPECT_EQ(formatNzd(0), "$0.00");
    EXPECT_EQ(formatNzd(99), "$0.99");
    EXPECT_EQ(formatNzd(99999), "$999.99");
    EXPECT_EQ(formatNzd(100000), "$1,000.00");
    EXPECT_EQ(formatNzd(123456), "$1,234.56");
    EXPECT_EQ(formatNzd(100000000), "$1,000,000.00");
    EXPECT_EQ(formatNzd(-5), "-$0.05");
    EXPECT_EQ(formatNzd(-123456), "-$1,234.56");
    EXPECT_EQ(formatNzd(std::numeric_limits<std::int64_t>::min()), "-$92,233,720,368,547,758.08");
}

TEST(IsCurrency, OnlyTheThreeTheShopSellsInUpperCase) {
    using storefront::catalog::isCurrency;
    EXPECT_TRUE(isCurrency("NZD"));
    EXPECT_TRUE(isCurrency("AUD"));
    EXPECT_TRUE(isCurrency("USD"));
    EXPECT_FALSE(isCurrency("nzd"));
    EXPECT_FALSE(isCurrency("EUR"));
    EXPECT_FALSE(isCurrency(""));
    EXPECT_FALSE(isCurrency("NZD "));
}

} // namespace

#include "billing/orders/rules.h"
#include "catalog/money.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

using namespace storefront::billing;

TEST(OrderNumber, IsReadableAndRandom) {
    const std::regex shape("SC-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}");
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {
        auto n = newOrderNumber();
        EXPECT_TRUE(std::regex_match(n, shape)) << n;
        seen.insert(n);
    }
    EXPECT_EQ(seen.size(), 2000u);
}

TEST(Validate, EveryStoredStatus) {
    const std::int64_t now = 1'800'000'000;
    auto none = validate(std::nullopt, now, 14);
    EXPECT_FALSE(none.valid);
    EXPECT_EQ(none.status, "none");
    EXPECT_EQ(none.message, "No subscription found");

    auto active = validate(SubscriptionState{"active", now + 86400 * 2 + 1, {}, {}}, now, 14);
    EXPECT_TRUE(active.valid);
    EXPECT_EQ(active.status, "active");
    EXPECT_EQ(active.daysRemaining, 3); // rounded up
    EXPECT_EQ(active.message, "Subscription active");

    auto noEnd = validate(SubscriptionState{"active", std::nullopt, {}, {}}, now, 14);
    EXPECT_TRUE(noEnd.valid);
    EXPECT_EQ(noEnd.daysRemaining, 0);

    auto trial = validate(SubscriptionState{"trialing", now + 60, {}, {}}, now, 14);
    EXPECT_TRUE(trial.valid);
    EXPECT_EQ(trial.status, "trial");
    EXPECT_EQ(trial.message, "Trial active");
    EXPECT_EQ(trial.daysRemaining, 1);

    auto lapsed = validate(SubscriptionState{"active", now, {}, {}}, now, 14); // the period end itself is past
    EXPECT_FALSE(lapsed.valid);
    EXPECT_EQ(lapsed.status, "expired");

    EXPECT_EQ(validate(SubscriptionState{"pending", now + 100, {}, {}}, now, 14).status, "pending");
    EXPECT_EQ(validate(SubscriptionState{"pending", now + 100, {}, {}}, now, 14).message, "Payment pending");
    EXPECT_FALSE(validate(SubscriptionState{"cancelled", now + 100, {}, {}}, now, 14).valid);
    EXPECT_EQ(validate(SubscriptionState{"cancelled", now + 100, {}, {}}, now, 14).message, "Subscription cancelled");
    EXPECT_EQ(validate(SubscriptionState{"expired", std::nullopt, {}, {}}, now, 14).status, "expired");
}

TEST(Validate, AnEnterpriseLicenceIsActiveWithNoExpiry) {
    const auto r = enterpriseLicence();
    EXPECT_TRUE(r.valid);
    EXPECT_EQ(r.status, "active");
    EXPECT_EQ(r.message, "Enterprise licence active");
    EXPECT_FALSE(r.expiresAt.has_value());
    EXPECT_EQ(r.daysRemaining, 0);
}

TEST(DaysRemaining, RoundsUpAndStopsAtZero) {
    EXPECT_EQ(daysRemaining(100, 100), 0);
    EXPECT_EQ(daysRemaining(99, 100), 0);
    EXPECT_EQ(daysRemaining(101, 100), 1);
    EXPECT_EQ(daysRemaining(100 + 86400, 100), 1);
    EXPECT_EQ(daysRemaining(101 + 86400, 100), 2);
}

TEST(SubscriptionSource, IsWordsJoinedByUnderscores) {
    EXPECT_EQ(subscriptionSource("stripe"), "stripe_subscription");
    EXPECT_EQ(subscriptionSource("local"), "test_checkout");
    EXPECT_EQ(subscriptionSource("promo code"), "promo_code");
}

TEST(AddInterval, UsesCalendarMonthsClampedToTheMonthEnd) {
    // 2027-01-31T10:00:00Z
    const std::int64_t jan31 = 1801389600;
    EXPECT_EQ(addInterval(jan31, "month", 1), 1801389600 + 28 * 86400); // 2027-02-28T10:00Z
    EXPECT_EQ(addInterval(jan31, "month", 3), 1801389600 + (28 + 31 + 30) * 86400); // 2027-04-30
    EXPECT_EQ(addInterval(jan31, "year", 1), 1801389600 + 365 * 86400);
    // 2028-02-29 + 1 year = 2029-02-28
    const std::int64_t leap = 1835431200; // 2028-02-29T10:00:00Z
    EXPECT_EQ(addInterval(leap, "year", 1), leap + 365 * 86400);
    EXPECT_EQ(addInterval(leap, "month", 12), leap + 365 * 86400);
}

TEST(ReturnPath, OnlyPathsOnThisSite) {
    EXPECT_TRUE(isSafeReturnPath("/dashboard"));
    EXPECT_TRUE(isSafeReturnPath("/test-subscription?x=1"));
    for (const char* bad : {"", "dashboard", "//evil.example", "/\\evil.example", "https://evil.example", "/a\nb", "/a\\b"})
        EXPECT_FALSE(isSafeReturnPath(bad)) << bad;
    EXPECT_FALSE(isSafeReturnPath("/" + std::string(600, 'a')));
}

TEST(Money, PlanCurrenciesAsEnNzShowsThem) {
    using storefront::catalog::formatMoney;
    EXPECT_EQ(formatMoney(1500, "NZD"), "$15.00");
    EXPECT_EQ(formatMoney(1500, "AUD"), "A$15.00");
    EXPECT_EQ(formatMoney(123456, "USD"), "US$1,234.56");
    EXPECT_EQ(formatMoney(-5, "AUD"), "-A$0.05");
}

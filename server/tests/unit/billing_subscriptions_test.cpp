// The subscription lifecycle's pure rules: the action table, Stripe's status words, the proration
// of a plan change, and validate-subscription during and after a past-due grace period.
#include "billing/orders/rules.h"
#include "billing/provider/stripe_json.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/proration.h"
#include "db/database.h"

#include <gtest/gtest.h>

using namespace storefront::billing;

TEST(SubscriptionLifecycle, EachStatusOffersOnlyWhatTheTableAllows) {
    using V = std::vector<std::string>;
    EXPECT_EQ(allowedActionNames({"active", false, false}), (V{"cancel_at_period_end", "cancel_now", "change_plan"}));
    EXPECT_EQ(allowedActionNames({"active", true, false}), (V{"cancel_now", "resume"}));
    EXPECT_EQ(allowedActionNames({"trialing", false, false}), (V{"cancel_at_period_end", "cancel_now", "change_plan"}));
    // Past due: pay first, no plan change; it may still be cancelled either way.
    EXPECT_EQ(allowedActionNames({"past_due", false, false}), (V{"cancel_at_period_end", "cancel_now"}));
    EXPECT_EQ(allowedActionNames({"pending", false, false}), (V{"cancel_now"}));
    // The period is over: nothing to resume or schedule.
    EXPECT_EQ(allowedActionNames({"active", true, true}), (V{"cancel_now"}));
    for (const char* ended : {"cancelled", "expired"}) {
        EXPECT_TRUE(allowedActionNames({ended, false, false}).empty()) << ended;
        EXPECT_TRUE(hasEnded(ended));
        EXPECT_FALSE(holdsProduct(ended));
    }
    for (const char* holding : {"active", "trialing", "past_due"}) EXPECT_TRUE(holdsProduct(holding)) << holding;
    EXPECT_FALSE(holdsProduct("pending"));
}

TEST(SubscriptionLifecycle, APeriodIsOverOnceItsStoredEndHasPassed) {
    const std::int64_t end = 1'800'000'000;
    const std::optional<std::string> stored = storefront::db::timestampFromEpoch(end);
    EXPECT_FALSE(factsOf("active", true, stored, end - 1).periodOver);
    EXPECT_TRUE(factsOf("active", true, stored, end).periodOver);
    EXPECT_FALSE(factsOf("active", true, std::nullopt, end).periodOver); // no end known: not over
    // Over: nothing left to resume.
    EXPECT_FALSE(isAllowed(factsOf("active", true, stored, end), SubscriptionAction::Resume));
    EXPECT_TRUE(isAllowed(factsOf("active", true, stored, end - 1), SubscriptionAction::Resume));
}

TEST(SubscriptionLifecycle, StripeStatusesMapToOursAndBack) {
    using stripe_json::statusFromStripe;
    using stripe_json::stripeStatusOf;
    EXPECT_EQ(statusFromStripe("active"), "active");
    EXPECT_EQ(statusFromStripe("trialing"), "trialing");
    EXPECT_EQ(statusFromStripe("past_due"), "past_due");
    EXPECT_EQ(statusFromStripe("unpaid"), "past_due");
    EXPECT_EQ(statusFromStripe("canceled"), "cancelled");
    EXPECT_EQ(statusFromStripe("incomplete_expired"), "expired");
    for (const char* s : {"incomplete", "paused", "something_new", ""}) EXPECT_EQ(statusFromStripe(s), "pending") << s;
    for (const char* ours : {"active", "trialing", "past_due", "cancelled", "expired", "pending"})
        EXPECT_EQ(statusFromStripe(stripeStatusOf(ours)), ours) << ours;
}

TEST(Proration, MonthlyToYearlyCreditsTheUnusedTimeAndChargesTheYearNow) {
    // HHTraff: $15.00 a month to $150.00 a year, 10 of 30 days used.
    const std::int64_t start = 1'800'000'000, end = start + 30 * 86400, now = start + 10 * 86400;
    ProrationInput in{{1500, "NZD", "month", 1}, {15000, "NZD", "year", 1}, start, end, now, 0, false};
    const auto p = prorate(in);
    EXPECT_EQ(p.credit, 1000);         // 20/30 of $15.00
    EXPECT_EQ(p.charge, 15000);        // a new yearly period starts now
    EXPECT_EQ(p.amountDueNow, 14000);
    EXPECT_EQ(p.balanceAfter, 0);
    EXPECT_EQ(p.periodStart, now);
    EXPECT_EQ(p.periodEnd, addInterval(now, "year", 1));
    EXPECT_EQ(p.nextRenewalAt, p.periodEnd);
    EXPECT_EQ(p.nextRenewalAmount, 15000);
}

TEST(Proration, TheSameIntervalKeepsThePeriodAndChargesTheDifferenceLeft) {
    const std::int64_t start = 1'800'000'000, end = start + 30 * 86400, now = start + 20 * 86400;
    const auto p = prorate({{1500, "NZD", "month", 1}, {2900, "NZD", "month", 1}, start, end, now, 0, false});
    EXPECT_EQ(p.credit, 500);  // 10/30 of $15.00
    EXPECT_EQ(p.charge, 967);  // 10/30 of $29.00 = 966.67, half up
    EXPECT_EQ(p.amountDueNow, 467);
    EXPECT_EQ(p.periodEnd, end);
    EXPECT_EQ(p.nextRenewalAt, end);
}

TEST(Proration, ACreditLargerThanTheChargeIsKeptNeverPaidOut) {
    // Yearly $150.00 to monthly $15.00 on day 1 of the year: the unused year exceeds the month.
    const std::int64_t start = 1'800'000'000, end = addInterval(start, "year", 1), now = start + 86400;
    const auto p = prorate({{15000, "NZD", "year", 1}, {1500, "NZD", "month", 1}, start, end, now, 0, false});
    EXPECT_EQ(p.amountDueNow, 0);
    EXPECT_EQ(p.balanceAfter, p.credit - 1500);
    EXPECT_GT(p.balanceAfter, 0);
    EXPECT_EQ(p.nextRenewalAmount, 0); // the next month is paid from the credit
    // A credit already held is taken off first.
    const auto held = prorate({{1500, "NZD", "month", 1}, {2900, "NZD", "month", 1}, start, start + 30 * 86400,
                               start + 20 * 86400, 300, false});
    EXPECT_EQ(held.amountDueNow, 167);
    EXPECT_EQ(held.balanceAfter, 0);
}

TEST(Proration, ATrialChargesNothingAndKeepsItsEnd) {
    const std::int64_t start = 1'800'000'000, end = start + 14 * 86400;
    const auto p = prorate({{1500, "NZD", "month", 1}, {15000, "NZD", "year", 1}, start, end, start + 86400, 0, true});
    EXPECT_EQ(p.amountDueNow, 0);
    EXPECT_EQ(p.credit, 0);
    EXPECT_EQ(p.periodEnd, end);
    EXPECT_EQ(p.nextRenewalAmount, 15000);
}

TEST(Proration, SharesRoundHalfUp) {
    EXPECT_EQ(shareOf(1, 1, 2), 1);
    EXPECT_EQ(shareOf(3, 1, 2), 2);
    EXPECT_EQ(shareOf(1000, 1, 3), 333);
    EXPECT_EQ(shareOf(1000, 2, 3), 667);
    EXPECT_EQ(shareOf(1000, 0, 3), 0);
    EXPECT_EQ(shareOf(1000, 5, 0), 0);
}

TEST(Validate, APastDueSubscriptionKeepsAccessForTheGracePeriodThenLosesIt) {
    const std::int64_t failed = 1'800'000'000; // 15 January 2027, 08:00 UTC
    const SubscriptionState state{"past_due", failed - 86400, {}, failed};
    const auto during = validate(state, failed + 86400, 14);
    EXPECT_TRUE(during.valid);
    EXPECT_EQ(during.status, "past_due");
    EXPECT_EQ(during.expiresAt, failed + 14 * 86400);
    EXPECT_EQ(during.daysRemaining, 13);
    EXPECT_EQ(during.message, "Payment failed: update your payment method by 29 January 2027 to keep access.");
    const auto after = validate(state, failed + 14 * 86400, 14);
    EXPECT_FALSE(after.valid);
    EXPECT_EQ(after.status, "past_due");
    EXPECT_EQ(after.message, "Payment overdue: update your payment method to restore access.");
    // No grace at all: refused at once.
    EXPECT_FALSE(validate(state, failed + 1, 0).valid);
}

TEST(Validate, ATrialAnswersWithItsEnd) {
    const std::int64_t now = 1'800'000'000;
    const auto trial = validate(SubscriptionState{"trialing", now + 30 * 86400, now + 5 * 86400, {}}, now, 14);
    EXPECT_TRUE(trial.valid);
    EXPECT_EQ(trial.status, "trial");
    EXPECT_EQ(trial.expiresAt, now + 5 * 86400);
    EXPECT_EQ(trial.daysRemaining, 5);
}

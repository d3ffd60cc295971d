#pragma once
// What a plan change costs (docs/billing.md, "Plan changes"), the rule Stripe applies with
// proration_behavior=always_invoice, computed here so the preview, the local test provider's
// charge and the unit test agree to the cent:
// * the unused time of the current plan is credited: its price x the share of the period left;
// * the same billing interval keeps the period: the new plan is charged for the share left, and
//   the renewal date stays;
// * another interval (monthly to yearly) starts a new period now: the new plan is charged in full;
// * a credit the customer holds (from an earlier change) is taken off first; what exceeds the
//   charge is kept as credit for the next renewal, never paid out;
// * during a trial nothing is charged: the trial goes on and the new plan starts at its end.
// Each share is rounded half up to a minor unit, once per line, as Stripe rounds its line items.
#include <cstdint>
#include <string>

namespace storefront::billing {

struct PlanPrice {
    std::int64_t amount = 0; // minor units per period
    std::string currency;
    std::string unit;        // month | year
    int count = 1;
};

struct ProrationInput {
    PlanPrice from, to;
    std::int64_t periodStart = 0, periodEnd = 0, now = 0; // unix seconds
    std::int64_t balance = 0;                             // credit the customer holds, >= 0
    bool trialing = false;
};

struct Proration {
    std::int64_t credit = 0;          // the unused time of the current plan
    std::int64_t charge = 0;          // the new plan's share
    std::int64_t amountDueNow = 0;    // charge - credit - balance, at least 0
    std::int64_t balanceAfter = 0;    // credit kept for the next renewal
    std::int64_t periodStart = 0, periodEnd = 0; // the period after the change
    std::int64_t nextRenewalAt = 0;
    std::int64_t nextRenewalAmount = 0; // the new plan's price less the credit kept
};

Proration prorate(const ProrationInput& input);

// `amount` x `part` / `whole`, rounded half up (whole > 0, 0 <= part <= whole).
std::int64_t shareOf(std::int64_t amount, std::int64_t part, std::int64_t whole);

} // namespace storefront::billing

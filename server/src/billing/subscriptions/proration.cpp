#include "billing/subscriptions/proration.h"

#include "billing/orders/rules.h"

#include <algorithm>

namespace storefront::billing {

std::int64_t shareOf(std::int64_t amount, std::int64_t part, std::int64_t whole) {
    if (whole <= 0) return 0;
    // Plan prices are at most 10^9 minor units and periods a few years of seconds: the product
    // stays far inside 64 bits.
    return (amount * part * 2 + whole) / (whole * 2);
}

Proration prorate(const ProrationInput& in) {
    Proration p;
    const std::int64_t length = std::max<std::int64_t>(in.periodEnd - in.periodStart, 1);
    const std::int64_t left = std::clamp<std::int64_t>(in.periodEnd - in.now, 0, length);
    const bool sameInterval = in.from.unit == in.to.unit && in.from.count == in.to.count;
    if (in.trialing) {
        p.periodStart = in.periodStart;
        p.periodEnd = in.periodEnd;
    } else if (sameInterval) {
        p.credit = shareOf(in.from.amount, left, length);
        p.charge = shareOf(in.to.amount, left, length);
        p.periodStart = in.periodStart;
        p.periodEnd = in.periodEnd;
    } else {
        p.credit = shareOf(in.from.amount, left, length);
        p.charge = in.to.amount;
        p.periodStart = in.now;
        p.periodEnd = addInterval(in.now, in.to.unit, in.to.count);
    }
    const std::int64_t net = p.charge - p.credit - std::max<std::int64_t>(in.balance, 0);
    p.amountDueNow = std::max<std::int64_t>(net, 0);
    p.balanceAfter = std::max<std::int64_t>(-net, 0);
    p.nextRenewalAt = p.periodEnd;
    p.nextRenewalAmount = std::max<std::int64_t>(in.to.amount - p.balanceAfter, 0);
    return p;
}

} // namespace storefront::billing

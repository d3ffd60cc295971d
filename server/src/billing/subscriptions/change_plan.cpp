// A plan change (docs/billing.md, "Plan changes"): its preview, and the change itself, priced
// under the claim from committed rows, charged through the provider with nothing held.
#include "billing/subscriptions/subscription_service.h"

#include "billing/orders/rules.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/subscription_mail.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

using http::ApiError;
using http::ErrorKind;
namespace st = subscription_status;

SubscriptionService::Preview SubscriptionService::previewOf(Poco::Data::Session& s, const SubscriptionRow& row,
                                                            const std::string& planId) {
    std::optional<PlanInfo> target, current;
    if (common::isUuid(planId)) target = subscriptions_.plan(s, planId);
    if (row.planId) current = subscriptions_.plan(s, *row.planId);
    if (!target || target->productId != row.productId)
        throw ApiError::validation({{"priceId", "Choose another plan of the same product."}}, "Choose another plan of the same product.");
    if (current && target->currency != current->currency)
        throw ApiError::validation({{"priceId", "Choose a plan in " + current->currency + "."}}, "Choose a plan in " + current->currency + ".");
    if (row.planId && *row.planId == planId)
        throw ApiError(ErrorKind::Conflict, "already_on_plan", "You are already on the " + target->name + " plan.");
    if (row.status == st::kPastDue)
        throw ApiError(ErrorKind::Conflict, "past_due", "Update your payment method and pay the overdue renewal before changing plan.");
    const auto now = db_.clock().epochSeconds();
    requireAllowed(row, SubscriptionAction::ChangePlan, now);
    if (!current || !row.periodEnd)
        throw ApiError(ErrorKind::Conflict, "invalid_transition", "This subscription has no plan to change from.");
    ProrationInput in;
    in.from = {current->amount, current->currency, current->unit, static_cast<int>(current->count)};
    in.to = {target->amount, target->currency, target->unit, static_cast<int>(target->count)};
    in.periodEnd = db::epochFromTimestamp(*row.periodEnd);
    in.periodStart = row.periodStart ? db::epochFromTimestamp(*row.periodStart)
                                     : addInterval(in.periodEnd, current->unit, -static_cast<int>(current->count));
    in.now = now;
    in.balance = row.creditBalance;
    in.trialing = row.status == st::kTrialing;
    return {prorate(in), target->currency, *target};
}

SubscriptionService::Preview SubscriptionService::preview(const std::string& ownerId, const std::string& id, const std::string& planId) {
    const auto row = owned(ownerId, id);
    auto s = db_.session();
    return previewOf(s, row, planId);
}

void SubscriptionService::changePlan(const audit::Actor& actor, const std::string& ownerId, const std::string& id,
                                     const std::string& planId, const std::optional<std::string>& key) {
    // Claimed, then priced from the row as of the claim: a second change (a double-click, another
    // tab, another server) is 409 action_in_progress, or priced from what this one wrote.
    Claimed claimed;
    std::optional<Preview> preview;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, "change_plan", key, {{"pricing_plan_id", planId}});
        if (claimed.claim) preview = previewOf(tx.session(), claimed.row, planId);
    });
    if (!claimed.claim) return;
    const auto& row = claimed.row;
    const auto& p = preview->proration;
    if (row.providerId) {
        PlanChange change;
        change.changeId = claimed.claim->id; // the provider's idempotency key: a retried claim cannot charge twice
        change.subscriptionId = *row.providerId;
        change.planId = planId;
        change.line = {preview->plan.productName + " - " + preview->plan.name, preview->plan.amount, preview->plan.currency, 1,
                       preview->plan.unit, static_cast<int>(preview->plan.count)};
        change.amountDueNow = p.amountDueNow;
        change.credit = p.credit;
        change.balanceAfter = p.balanceAfter;
        change.periodStart = p.periodStart;
        change.periodEnd = p.periodEnd;
        bool applied = false;
        try {
            applied = provider_.changePlan(change);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            failedAtProvider("change plan " + id, e);
        }
        if (!applied) {
            claims_.fail(db_, claimed.claim->id);
            throw ApiError(ErrorKind::Conflict, "card_declined",
                           "Your card was declined, so the plan was not changed. Update your payment method and try again.");
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        c.planId = planId;
        c.creditBalance = p.balanceAfter;
        c.periodStart = db::timestampFromEpoch(p.periodStart);
        c.periodEnd = db::timestampFromEpoch(p.periodEnd);
        writeOutcome(tx, id, row, c, *claimed.claim, [&](const SubscriptionRow& now) { return now.planId == planId; });
        auto after = *subscriptions_.find(tx, id);
        audit::record(tx, actor, {"subscription.plan_changed", "subscription", id, stateOf(row), stateOf(after),
                                  {{"amount_due_now", p.amountDueNow}, {"credit", p.credit}, {"balance_after", p.balanceAfter}}});
        auto m = planChangedMail(subscriptions_.ownerEmail(tx, row.userId), preview->plan.productName, preview->plan.name,
                                 p.amountDueNow, p.balanceAfter, preview->currency, p.nextRenewalAt, p.nextRenewalAmount, publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

} // namespace storefront::billing

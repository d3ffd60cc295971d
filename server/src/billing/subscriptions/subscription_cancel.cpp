// Cancelling a subscription (at its period end, or now) and resuming one that was to end: the
// owner's (dashboard) or staff's action, claimed, checked against the lifecycle table, asked of the
// provider with nothing held, written as a compare-and-set, audited and mailed.
#include "billing/subscriptions/subscription_service.h"

#include "billing/subscriptions/lifecycle.h"
#include "billing/subscriptions/subscription_mail.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

using http::ApiError;
using http::ErrorKind;
namespace st = subscription_status;

void SubscriptionService::cancel(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id,
                                 bool atPeriodEnd, const std::optional<std::string>& reason, const std::optional<std::string>& key) {
    const auto action = atPeriodEnd ? SubscriptionAction::CancelAtPeriodEnd : SubscriptionAction::CancelNow;
    Claimed claimed;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, atPeriodEnd ? "cancel_at_period_end" : "cancel_now", key, {{"at_period_end", atPeriodEnd}});
        if (claimed.claim) requireAllowed(claimed.row, action, tx.clock().epochSeconds());
    });
    if (!claimed.claim) return; // the same request again: done already
    const auto& row = claimed.row;
    if (row.providerId) {
        try {
            if (atPeriodEnd) provider_.setCancelAtPeriodEnd(*row.providerId, true);
            else provider_.cancelSubscriptionNow(*row.providerId);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            failedAtProvider("cancel " + id, e);
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        if (atPeriodEnd) c.cancelAtPeriodEnd = true;
        else {
            c.status = st::kCancelled;
            c.endedAt = std::optional<std::string>(tx.clock().nowTimestamp());
        }
        writeOutcome(tx, id, row, c, *claimed.claim, [&](const SubscriptionRow& now) {
            return atPeriodEnd ? now.cancelAtPeriodEnd : hasEnded(now.status);
        });
        auto after = *subscriptions_.find(tx, id);
        nlohmann::json detail = {{"at_period_end", atPeriodEnd}};
        if (reason) detail["reason"] = *reason;
        audit::record(tx, actor, {atPeriodEnd ? "subscription.cancel_scheduled" : "subscription.cancelled", "subscription", id,
                                  stateOf(row), stateOf(after), detail});
        auto m = cancellationMail(subscriptions_.ownerEmail(tx, row.userId), subscriptions_.productName(tx, row.productId), atPeriodEnd,
                                  epochOf(after.periodEnd), publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

void SubscriptionService::resume(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id,
                                 const std::optional<std::string>& key) {
    Claimed claimed;
    db_.write([&](db::Tx& tx) {
        claimed = claimFor(tx, ownerId, id, "resume", key, nlohmann::json::object());
        if (claimed.claim) requireAllowed(claimed.row, SubscriptionAction::Resume, tx.clock().epochSeconds());
    });
    if (!claimed.claim) return;
    const auto& row = claimed.row;
    if (row.providerId) {
        try {
            provider_.setCancelAtPeriodEnd(*row.providerId, false);
        } catch (const ProviderError& e) {
            claims_.fail(db_, claimed.claim->id);
            failedAtProvider("resume " + id, e);
        }
    }
    db_.write([&](db::Tx& tx) {
        SubscriptionChange c;
        c.cancelAtPeriodEnd = false;
        writeOutcome(tx, id, row, c, *claimed.claim, [](const SubscriptionRow& now) { return !now.cancelAtPeriodEnd; });
        auto after = *subscriptions_.find(tx, id);
        audit::record(tx, actor, {"subscription.resumed", "subscription", id, stateOf(row), stateOf(after)});
        auto m = resumedMail(subscriptions_.ownerEmail(tx, row.userId), subscriptions_.productName(tx, row.productId), epochOf(after.periodEnd), publicUrl_);
        if (!m.to.empty()) outbox_.enqueue(tx, m);
    });
}

} // namespace storefront::billing

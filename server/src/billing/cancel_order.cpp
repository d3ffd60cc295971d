// Cancel order (POST /api/v1/admin/orders/{id}/cancel; docs/billing.md, "Order lifecycle"), one
// flow, top to bottom, in the order the books need:
//   1. claim the order under its lock and decide from its status (pending: cancelled right there);
//   2. a paid order's money back through the provider, nothing held;
//   3. the outcome in one transaction: the refund settled (credit note, restock), the order
//      cancelled, one history row naming the refund, one audit entry, the customer's mail;
//   4. after the commit, the provider's open checkout sessions of a pending order expired.
#include "billing/order_admin.h"

#include "catalog/money.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

namespace {

using http::ApiError;
using http::ErrorKind;

// What the cancellation decided under the claim.
struct CancelPlan {
    std::string from;                        // the status it decided from
    std::int64_t remaining = 0;              // the money still to refund
    std::optional<RefundRequest> refund;     // what to ask the provider (none: nothing left to refund)
    std::optional<Claim> claim;              // held from the decision to the outcome
    std::vector<std::pair<std::string, std::optional<std::string>>> toExpire; // a pending order's checkouts
};

// "Cancelled: {reason}", and what went back: "Refunded 1 x USB to RS-232 Serial Cable, $49.00 NZD".
std::string cancelNote(const std::string& reason, std::int64_t refunded, const std::string& currency,
                       const std::vector<RefundLine>& lines, const std::vector<RefundableItem>& items) {
    std::string note = "Cancelled: " + reason;
    if (refunded <= 0) return note;
    std::string what;
    for (const auto& line : lines)
        for (const auto& item : items)
            if (item.id == line.orderItemId)
                what += (what.empty() ? "" : ", ") + std::to_string(line.quantity) + " x " + item.productName;
    return note + ". Refunded " + (what.empty() ? "" : what + ", ") + catalog::formatMoney(refunded, currency) + " " + currency;
}

} // namespace

AdminOrderDetail OrderAdmin::cancel(const audit::Actor& actor, const std::string& id, const std::string& reason, bool restock) {
    CancelPlan plan;
    AdminOrderDetail after;

    // 1. Claimed where it starts, under the lock: the checks see what the refund will see, and no
    // shipment, completion or other refund comes between them and the cancellation's write.
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state) throw ApiError::notFound("order_not_found", "No such order.");
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        plan.from = state->status;
        const auto facts = orders_.facts(tx, id);
        if (plan.from == "pending") {
            // Nothing was paid: the stock goes back, the checkout closes, the order is cancelled.
            requireMove(OrderPath::Staff, plan.from, "cancelled", facts);
            auto before = *detail(tx, id);
            releaseStock(tx, id);
            plan.toExpire = checkouts_.expireOpen(tx, id);
            moveOrder(tx, orders_, id, OrderPath::Staff, plan.from, "cancelled", source::kStaff, false, facts);
            orders_.addHistory(tx, {id, plan.from, "cancelled", source::kStaff, actor.userId, actor.email, "Cancelled: " + reason});
            after = *detail(tx, id);
            audit::record(tx, actor, {"order.cancelled", "order", id, toJson(before), toJson(after),
                                      {{"reason", reason}, {"refunded_amount", 0}}});
            tx.notify(db::topic::kCatalog);
            return;
        }
        if (plan.from != "paid") refuseMove(OrderPath::StaffCancel, plan.from, "cancelled", facts);
        auto order = *ledger_.refundable(tx, id);
        if (!order.providerPaymentId || order.paymentProvider != provider_.name())
            throw ApiError(ErrorKind::Conflict, "order_not_refundable",
                           "This order was paid outside the payment provider (Mark as paid), so it cannot be refunded or "
                           "cancelled here: return the money the way it came.");
        plan.remaining = std::max<std::int64_t>(0, order.totalAmount - order.refundedAmount);
        plan.claim = claims_.claim(tx, {record_type::kOrder, id, "cancel", std::nullopt,
                                        nlohmann::json{{"reason", reason}, {"restock", restock}}.dump()});
        if (plan.remaining == 0) return;
        // A cancel sent again after the provider failed: its refund still waits, and is sent again
        // under the same id. Any other refund waiting makes this one wait too.
        std::optional<Refund> row;
        if (auto waiting = ledger_.requestedRefund(tx, id)) {
            if (waiting->clientKey || waiting->amount != plan.remaining)
                throw ApiError(ErrorKind::Conflict, "refund_in_progress",
                               "Another refund of this order (" + catalog::formatMoney(waiting->amount, waiting->currency) + " " +
                                   waiting->currency + ") is still waiting for the payment provider. Try again shortly.");
            row = waiting;
        } else {
            // One refund naming every line with what is left of it, so each line reads refunded in
            // full; unless earlier refunds gave back less than their lines' worth (then the amount
            // alone, and the restock returns what has not gone back yet).
            std::vector<RefundLine> lines;
            std::int64_t linesWorth = 0;
            for (const auto& item : ledger_.refundableItems(tx, id))
                if (const auto left = item.quantity - item.refundedQuantity; left > 0) {
                    lines.push_back({item.id, left});
                    linesWorth += item.unitAmount * left;
                }
            if (linesWorth < plan.remaining) lines.clear();
            row = ledger_.refund(tx, ledger_.insertRefund(tx, {id, plan.remaining, order.currency, reason, restock, "requested",
                                                               "staff", provider_.name(), std::nullopt, std::nullopt,
                                                               actor.userId, actor.email, lines, std::nullopt}));
        }
        plan.refund = RefundRequest{row->id, id, order.providerPaymentId.value_or(""), row->amount, row->reason.value_or(""), ""};
    });
    if (plan.from == "pending") {
        expireAtProvider(plan.toExpire, id);
        return after;
    }

    // 2. The money first, through the provider: a failure is 502 and the order stays as it was
    // (its refund waits, requested; the same cancel again sends it once).
    CreatedRefund created;
    if (plan.refund) {
        try {
            created = provider_.createRefund(*plan.refund);
        } catch (const ProviderError& e) {
            claims_.fail(db_, plan.claim->id);
            Poco::Logger::get("billing").warning("refund %s of order %s: %s", plan.refund->refundId, id, std::string(e.what()));
            throw ApiError(ErrorKind::BadGateway, "payment_provider_error",
                           "The payment provider did not confirm the refund. Try again: it will not be refunded twice.");
        }
    }

    // 3. The outcome. From the status it decided from (paid, or refunded by the refund just
    // settled): the claim kept every other move out, and moveOrder's compare-and-set says so.
    bool refundFailed = false;
    db_.write([&](db::Tx& tx) {
        orders_.lock(tx, id);
        auto before = *detail(tx, id);
        std::string refundStatus;
        if (plan.refund) {
            const auto row = *ledger_.refund(tx, plan.refund->refundId);
            const bool final = created.status == "succeeded" || created.status == "failed" || created.status == "canceled";
            book_.settle(tx, row, final ? created.status : "pending", created.id, std::nullopt,
                         {source::kStaff, actor.userId, actor.email, /*mailCustomer*/ false, /*historyRow*/ false});
            refundStatus = ledger_.refund(tx, plan.refund->refundId)->status;
            if (refundStatus == "failed" || refundStatus == "canceled") {
                // The provider could not pay it out: nothing is cancelled, the claim is over.
                claims_.finish(tx, plan.claim->id);
                refundFailed = true;
                return;
            }
        }
        auto state = *orders_.lock(tx, id);
        if (state.status != "cancelled")
            moveOrder(tx, orders_, id, OrderPath::StaffCancel, state.status, "cancelled", source::kStaff, false, orders_.facts(tx, id));
        const auto lines = plan.refund ? ledger_.refundLines(tx, plan.refund->refundId) : std::vector<RefundLine>{};
        orders_.addHistory(tx, {id, plan.from, "cancelled", source::kStaff, actor.userId, actor.email,
                                cancelNote(reason, plan.remaining, before.order.currency, lines, ledger_.refundableItems(tx, id))});
        claims_.finish(tx, plan.claim->id);
        after = *detail(tx, id);
        nlohmann::json extra = {{"reason", reason}, {"refunded_amount", plan.remaining}, {"restock", restock}};
        if (plan.refund) {
            extra["refund_id"] = plan.refund->refundId;
            extra["provider_refund_id"] = created.id;
            extra["refund_status"] = refundStatus;
        }
        audit::record(tx, actor, {"order.cancelled", "order", id, toJson(before), toJson(after), extra});
        if (auto mail = cancelledMail(after, reason, plan.remaining, publicUrl_); !mail.to.empty()) outbox_.enqueue(tx, mail);
        tx.notify(db::topic::kCatalog); // stock may have changed
    });
    if (refundFailed) throw ApiError(ErrorKind::BadGateway, "refund_failed", "The payment provider could not make this refund.");
    return after;
}

} // namespace storefront::billing

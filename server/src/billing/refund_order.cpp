// A refund of an order (POST /api/v1/admin/orders/{id}/refunds; docs/billing.md, "Refunds"): by
// line or by amount, or returning a payment made twice (late_payment_id). Claimed and checked
// under the order's lock, the provider asked with nothing held, settled in one transaction by the
// books (credit note, restock, the refund's history row), audited as order.refunded.
#include "billing/order_admin.h"

#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

namespace {

struct CheckedLines {
    std::int64_t total = 0; // the lines' price × quantity
};

// Checks a refund's lines against the order (under its lock): each names one of its lines, once,
// for 1 to what is left of it unrefunded. 422 naming the line otherwise.
CheckedLines checkRefundLines(LedgerRepository& ledger, db::Tx& tx, const std::string& orderId,
                              const OrderAdmin::RefundInput& in) {
    CheckedLines out;
    if (in.lines.empty()) return out;
    const auto items = ledger.refundableItems(tx, orderId);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < in.lines.size(); ++i) {
        const auto& line = in.lines[i];
        const std::string field = "lines[" + std::to_string(i) + "]";
        const RefundableItem* item = nullptr;
        for (const auto& it : items)
            if (it.id == line.orderItemId) item = &it;
        if (!item)
            throw ApiError::validation({{field, "No line " + line.orderItemId + " in this order."}},
                                       "Line " + line.orderItemId + " is not part of this order.");
        if (!seen.insert(item->id).second)
            throw ApiError::validation({{field, "This line is named twice."}}, "Line " + item->id + " is named twice.");
        const std::int64_t left = item->quantity - item->refundedQuantity;
        if (line.quantity < 1 || line.quantity > left)
            throw ApiError::validation(
                {{field, left == 0 ? item->productName + " has been refunded already."
                                   : "Choose 1 to " + std::to_string(left) + " of " + item->productName + "."}},
                left == 0 ? "Line " + item->id + " (" + item->productName + ") has been refunded in full already."
                          : "Line " + item->id + " (" + item->productName + ") has " + std::to_string(left) +
                                " left to refund.");
        out.total += item->unitAmount * line.quantity;
    }
    if (in.amount && *in.amount > out.total)
        throw ApiError::validation({{"amount", "At most the lines' " + std::to_string(out.total) + " cents."}},
                                   "The amount is more than the chosen lines cost.");
    return out;
}

bool sameLines(std::vector<RefundLine> a, std::vector<RefundLine> b) {
    const auto byItem = [](const RefundLine& x, const RefundLine& y) { return x.orderItemId < y.orderItemId; };
    std::sort(a.begin(), a.end(), byItem);
    std::sort(b.begin(), b.end(), byItem);
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const RefundLine& x, const RefundLine& y) {
        return x.orderItemId == y.orderItemId && x.quantity == y.quantity;
    });
}

} // namespace

std::optional<RefundRequest> OrderAdmin::returnRequest(db::Tx& tx, const audit::Actor& actor, const std::string& id,
                                                       const RefundInput& in) {
    const auto late = common::isUuid(*in.latePaymentId) ? orders_.latePayment(tx, id, *in.latePaymentId) : std::nullopt;
    if (!late)
        throw ApiError::validation({{"late_payment_id", "No such payment of this order."}}, "That payment is not one of this order's.");
    if (late->reason != late_payment_reason::kAlreadyPaid)
        throw ApiError::validation({{"late_payment_id", "Only a payment for an order already paid is returned this way."}},
                                   "This payment arrived after the order was cancelled: refund the order, or reinstate it.");
    if (!in.lines.empty() || in.restock)
        throw ApiError::validation({{"late_payment_id", "Returning a payment made twice takes no lines and no restock."}},
                                   "Returning a payment made twice takes no lines and no restock: the order stays as it is.");
    if (late->provider != provider_.name())
        throw ApiError(ErrorKind::Conflict, "order_not_refundable",
                       "This payment came through " + late->provider + ", not this server's payment provider: return it there.");
    std::optional<Refund> row;
    if (in.clientKey) row = ledger_.refundByClientKey(tx, id, *in.clientKey);
    const std::int64_t left = late->amount - late->returned;
    const std::int64_t amount = in.amount.value_or(row ? row->amount : left);
    if (row && (row->amount != amount || row->latePaymentId != in.latePaymentId))
        throw ApiError(ErrorKind::Conflict, "idempotency_key_reused", "This Idempotency-Key was used for another refund of this order.");
    if (row && row->status != "requested") return std::nullopt; // a repeat of a return made already
    if (!row) {
        if (amount < 1 || amount > left) {
            const auto most = catalog::formatMoney(std::max<std::int64_t>(left, 0), late->currency) + " " + late->currency;
            throw ApiError::validation({{"amount", left > 0 ? "At most " + most + " of this payment is left to return."
                                                            : "This payment has been returned in full."}},
                                       left > 0 ? "Only " + most + " of this payment is left to return."
                                                : "This payment has been returned in full.");
        }
        NewRefund n{id, amount, late->currency, in.reason, false, "requested", "staff", provider_.name(), std::nullopt, in.clientKey,
                    actor.userId, actor.email, {}, std::nullopt};
        n.latePaymentId = late->id;
        row = ledger_.refund(tx, ledger_.insertRefund(tx, n));
    }
    return RefundRequest{row->id, id, late->providerReference, row->amount, row->reason.value_or(""), ""};
}

AdminOrderDetail OrderAdmin::refund(const audit::Actor& actor, const std::string& id, const RefundInput& in) {
    nlohmann::json before;
    std::optional<RefundRequest> request; // none: the refund was settled already (a repeat of a finished one)
    AdminOrderDetail after;
    std::optional<Claim> own; // this refund's claim of the order
    db_.write([&](db::Tx& tx) {
        if (!orders_.lock(tx, id)) throw ApiError::notFound("order_not_found", "No such order.");
        own = claims_.claim(tx, {record_type::kOrder, id, "refund", std::nullopt, "{}"});
        if (in.latePaymentId) {
            request = returnRequest(tx, actor, id, in);
            if (!request) {
                if (own) claims_.finish(tx, own->id);
                after = *detail(tx, id);
            }
            return;
        }
        auto order = *ledger_.refundable(tx, id);
        // What this request refunds: its lines' worth and amount (the lines are checked against what
        // is left of each below, for a new refund: a retry's are counted already by its own row).
        std::int64_t linesWorth = 0;
        if (!in.lines.empty())
            for (const auto& item : ledger_.refundableItems(tx, id))
                for (const auto& line : in.lines)
                    if (line.orderItemId == item.id) linesWorth += item.unitAmount * line.quantity;
        const std::int64_t amount = in.amount.value_or(linesWorth);
        std::optional<Refund> row;
        // One Idempotency-Key is one refund: the same key again is that refund (a retry of one
        // whose answer never came sends it to the provider again, under the same id).
        if (in.clientKey) row = ledger_.refundByClientKey(tx, id, *in.clientKey);
        if (row && (row->amount != amount || row->restock != in.restock ||
                    !sameLines(ledger_.refundLines(tx, row->id), in.lines)))
            throw ApiError(ErrorKind::Conflict, "idempotency_key_reused",
                           "This Idempotency-Key was used for another refund of this order.");
        // A client that sends no key: its retry of a refund still waiting is that refund (only
        // when that one had no key either and asked for exactly the same).
        if (!row && !in.clientKey)
            if (auto waiting = ledger_.requestedRefund(tx, id);
                waiting && !waiting->clientKey && waiting->amount == amount && waiting->restock == in.restock &&
                sameLines(ledger_.refundLines(tx, waiting->id), in.lines))
                row = waiting;
        if (row && row->status != "requested") {
            if (own) claims_.finish(tx, own->id);
            after = *detail(tx, id);
            return;
        }
        if (!row) {
            checkRefundLines(ledger_, tx, id, in);
            // Paid, or money that arrived after staff cancelled the order (refund it, or reinstate).
            if (order.status != "paid" && order.status != "shipped" && order.status != "completed" &&
                order.status != "refunded" && !(order.status == "cancelled" && order.paidAfterCancellation))
                throw ApiError(ErrorKind::Conflict, "order_not_refundable", "Only a paid order can be refunded.");
            if (!order.providerPaymentId || order.paymentProvider != provider_.name())
                throw ApiError(ErrorKind::Conflict, "order_not_refundable",
                               "This order was not paid through the payment provider, so there is nothing to refund here.");
            // Refunds still waiting for the provider count against what is left: a second refund
            // with its own key gets its own refund when the rest allows, else 409 (never the
            // first caller's refund).
            const std::int64_t inFlight = ledger_.requestedAmount(tx, id);
            std::int64_t remaining = order.totalAmount - order.refundedAmount - inFlight;
            if (remaining < 0) remaining = 0;
            if (amount > remaining) {
                if (inFlight > 0)
                    throw ApiError(ErrorKind::Conflict, "refund_in_progress",
                                   "Another refund of this order (" + catalog::formatMoney(inFlight, order.currency) + " " +
                                       order.currency + ") is still waiting for the payment provider. Try again shortly.");
                const auto left = catalog::formatMoney(remaining, order.currency) + " " + order.currency;
                auto error = ApiError::validation({{"amount", "At most " + left + " can still be refunded."}},
                                                  "Only " + left + " of this order can still be refunded.");
                error.extra = {{"remaining_amount", remaining}};
                throw error;
            }
            // Restocking without lines returns the whole order: only with the refund that completes it.
            if (in.restock && in.lines.empty() && amount != remaining)
                throw ApiError::validation(
                    {{"restock", "Choose the lines to return to stock, or refund the whole of what is left."}},
                    "Only a refund of the whole remainder can return the order to stock without naming its lines.");
            const auto refundId = ledger_.insertRefund(tx, {id, amount, order.currency, in.reason, in.restock, "requested",
                                                            "staff", provider_.name(), std::nullopt, in.clientKey,
                                                            actor.userId, actor.email, in.lines, std::nullopt});
            row = ledger_.refund(tx, refundId);
        }
        request = RefundRequest{row->id, id, order.providerPaymentId.value_or(""), row->amount, row->reason.value_or(""), ""};
    });
    if (!request) return after;

    // Outside any transaction: the provider may take seconds. A failure leaves the row requested.
    CreatedRefund created;
    try {
        created = provider_.createRefund(*request);
    } catch (const ProviderError& e) {
        if (own) claims_.fail(db_, own->id);
        Poco::Logger::get("billing").warning("refund %s of order %s: %s", request->refundId, id, std::string(e.what()));
        throw ApiError(ErrorKind::BadGateway, "payment_provider_error",
                       "The payment provider did not confirm the refund. Try again: it will not be refunded twice.");
    }
    std::string status;
    db_.write([&](db::Tx& tx) {
        orders_.lock(tx, id);
        if (own) claims_.finish(tx, own->id);
        before = toJson(*detail(tx, id));
        auto row = *ledger_.refund(tx, request->refundId);
        const std::string settled = created.status == "succeeded" || created.status == "failed" || created.status == "canceled"
                                        ? created.status
                                        : "pending";
        book_.settle(tx, row, settled, created.id, std::nullopt, {source::kStaff, actor.userId, actor.email});
        status = ledger_.refund(tx, request->refundId)->status;
        after = *detail(tx, id);
        audit::record(tx, actor, {"order.refunded", "order", id, before, toJson(after),
                                  {{"refund_id", request->refundId},
                                   {"amount", request->amount},
                                   {"provider_refund_id", created.id},
                                   {"status", status}}});
    });
    if (status == "failed" || status == "canceled")
        throw ApiError(ErrorKind::BadGateway, "refund_failed", "The payment provider could not make this refund.");
    return after;
}

} // namespace storefront::billing

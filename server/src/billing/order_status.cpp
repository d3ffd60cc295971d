// Staff's status changes of an order (PATCH /api/v1/admin/orders/{id}; docs/billing.md, "Order
// lifecycle"): Mark as paid (money received outside the provider, with its reference and, for goods
// without one, the shipping address), Mark as shipped (with tracking, and its correction), Mark as
// completed, reinstating, and cancelling an unpaid order. Each is one transaction under the order's
// lock, along the lifecycle table's staff rows, with its history row and audit entry.
#include "billing/order_admin.h"

#include "billing/event_processor.h"
#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

AdminOrderDetail OrderAdmin::changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                          const std::optional<std::string>& note, const Tracking& tracking,
                                          const std::optional<Payment>& payment) {
    return transition(actor, id, status, note, tracking, payment, nullptr);
}

AdminOrderDetail OrderAdmin::transition(const audit::Actor& actor, const std::string& id, const std::string& status,
                                        const std::optional<std::string>& note, const Tracking& tracking,
                                        const std::optional<Payment>& payment,
                                        const std::function<void(const AdminOrderDetail&)>& guard) {
    AdminOrderDetail after;
    std::vector<std::pair<std::string, std::optional<std::string>>> toExpire;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state) throw ApiError::notFound("order_not_found", "No such order.");
        // Not while Cancel order or a refund is asking the provider (it decided from this state).
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        auto before = *detail(tx, id);
        if (guard) guard(before);
        const bool hasTracking = tracking.carrier || tracking.trackingNumber;
        if (state->status == status) {
            const auto& f = before.order.fulfilment;
            if (status != "shipped" || !hasTracking ||
                (f.carrier == tracking.carrier && f.trackingNumber == tracking.trackingNumber)) {
                after = std::move(before);
                return;
            }
            // Shipped already: staff correct the carrier or tracking number; the customer hears of it.
            orders_.setTracking(tx, id, tracking.carrier, tracking.trackingNumber);
            after = *detail(tx, id);
            audit::record(tx, actor, {"order.tracking_changed", "order", id, toJson(before), toJson(after)});
            if (auto mail = shippedMail(after, publicUrl_); !mail.to.empty()) outbox_.enqueue(tx, mail);
            return;
        }
        // The lifecycle table first: a move it does not hold is 409 and nothing changes.
        const auto facts = orders_.facts(tx, id);
        requireMove(OrderPath::Staff, state->status, status, facts);
        const bool markPaid = state->status == "pending" && status == "paid";
        if (markPaid && !payment)
            throw ApiError::validation({{"payment_reference", "Enter the payment's reference, such as the bank transfer's."}},
                                       "Mark as paid is for money received outside the payment provider: give its reference.");
        if (!markPaid && payment)
            throw ApiError::validation({{"payment_reference", "Only an unpaid order being marked as paid takes a payment reference."}});
        if (markPaid && facts.physical && !payment->address && !before.order.fulfilment.address)
            throw ApiError::validation({{"shipping_address", "Enter the shipping address: this order has goods to send."}},
                                       "This order has goods to send and no shipping address: enter where they go.");
        if (markPaid && !facts.physical && payment->address)
            throw ApiError::validation({{"shipping_address", "Digital order: nothing to ship, so no shipping address."}});
        if (markPaid && payment->address) orders_.replaceShippingAddress(tx, id, *payment->address);
        if (status == "cancelled") {
            releaseStock(tx, id);
        } else if (state->status == "cancelled") {
            // Reinstated: the stock the cancellation gave back is taken again, or the change is refused.
            for (const auto& r : checkouts_.reclaimReservation(tx, id))
                if (!catalog::takeStock(tx, r.productId, r.quantity))
                    throw ApiError(ErrorKind::Conflict, "insufficient_stock",
                                   "There is not enough stock left to reinstate this order.");
        }
        if (status != "pending") {
            // Decided by staff: the buyer can no longer pay through the open checkout.
            toExpire = checkouts_.expireOpen(tx, id);
            if (status != "cancelled") checkouts_.settleReservation(tx, id);
        }
        // The flag says "money arrived for an order staff cancelled": it stays while the order stays cancelled.
        moveOrder(tx, orders_, id, OrderPath::Staff, state->status, status, source::kStaff,
                  status == "cancelled" && state->paidAfterCancellation, facts);
        if (status == "shipped") orders_.setTracking(tx, id, tracking.carrier, tracking.trackingNumber);
        auto historyNote = note;
        if (markPaid) {
            const std::string received = "Marked as paid: payment received outside the payment provider (reference " +
                                         payment->reference + ")";
            historyNote = note ? received + ": " + *note : received;
        }
        orders_.addHistory(tx, {id, state->status, status, source::kStaff, actor.userId, actor.email, historyNote});
        if (markPaid) recordManualPayment(tx, id, *state, payment->reference);
        after = *detail(tx, id);
        audit::record(tx, actor, {"order.status_changed", "order", id, toJson(before), toJson(after)});
        if (status == "shipped")
            if (auto mail = shippedMail(after, publicUrl_); !mail.to.empty()) outbox_.enqueue(tx, mail);
        tx.notify(db::topic::kCatalog); // stock may have changed
    });
    expireAtProvider(toExpire, id);
    return after;
}

void OrderAdmin::recordManualPayment(db::Tx& tx, const std::string& id, const OrderState& state, const std::string& reference) {
    ledger_.add(tx, {"manual:payment:" + id, ledger_kind::kManualPayment, state.totalAmount, state.currency, kManualPayment,
                     reference, id, std::nullopt, std::nullopt, std::nullopt});
    ledger_.setProviderPayment(tx, id, kManualPayment, reference);
    invoices_.issueForOrder(tx, id);
    if (auto summary = orders_.find(tx, id)) {
        auto message = orderConfirmation(*summary, invoices_.forOrder(tx, id), publicUrl_);
        if (!message.to.empty()) outbox_.enqueue(tx, message);
    }
}

} // namespace storefront::billing

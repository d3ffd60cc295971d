#include "billing/order_admin.h"

#include "billing/event_processor.h"
#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "common/text.h"
#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

namespace {

template <typename T>
nlohmann::json orNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

mail::MailMessage shippedMail(const AdminOrderDetail& d, const std::string& publicUrl) {
    mail::MailMessage m;
    const auto& o = d.order;
    if (!o.customerEmail || !mail::isValidEmailAddress(*o.customerEmail)) return m;
    m.kind = "order_shipped";
    m.to = *o.customerEmail;
    m.subject = "Your order " + o.orderNumber + " has shipped";
    std::string text = "Good news: your order " + o.orderNumber + " is on its way.\n\n";
    const auto& f = o.fulfilment;
    if (f.carrier) text += "Carrier: " + *f.carrier + "\n";
    if (f.trackingNumber) text += "Tracking number: " + *f.trackingNumber + "\n";
    if (!f.carrier && !f.trackingNumber) text += "There is no tracking number for this delivery.\n";
    text += "\nItems:\n";
    // What is on its way: a refunded unit is not sent (docs/billing.md, "Shipping and fulfilment").
    for (const auto& i : d.items)
        if (const auto toSend = i.quantity - i.refundedQuantity; toSend > 0)
            text += "  " + std::to_string(toSend) + " x " + i.productName + "\n";
    if (f.address) {
        text += "\nShipping to:\n";
        for (const auto& line : addressLines(*f.address)) text += "  " + line + "\n";
    }
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}

bool isOrderStatus(const std::string& s) {
    return s == "pending" || s == "paid" || s == "shipped" || s == "completed" || s == "cancelled";
}

db::Page<AdminOrder> OrderAdmin::orders(const AdminOrderFilter& filter, const db::PageQuery& page) {
    auto s = db_.session();
    auto list = orders_.adminList(s, filter, page);
    for (auto& o : list.items) o.cancellable = o.status == "paid" && paidHere(o);
    return list;
}

bool OrderAdmin::paidHere(const AdminOrder& o) const { return o.providerPaid && o.paymentProvider == provider_.name(); }

std::optional<AdminOrderDetail> OrderAdmin::order(const std::string& id) {
    auto s = db_.session();
    return detail(s, id);
}

AdminOrderDetail OrderAdmin::changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                          const std::optional<std::string>& note, const Tracking& tracking,
                                          const std::optional<Payment>& payment) {
    return transition(actor, id, status, note, tracking, payment, nullptr);
}

AdminOrderDetail OrderAdmin::setShippingAddress(const audit::Actor& actor, const std::string& id, const ShippingAddress& address) {
    AdminOrderDetail after;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state) throw ApiError::notFound("order_not_found", "No such order.");
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        if (!orders_.facts(tx, id).physical)
            throw ApiError(ErrorKind::Conflict, "nothing_to_ship", "Digital order: nothing to ship, so no shipping address.");
        if (state->status != "pending" && state->status != "paid")
            throw ApiError(ErrorKind::Conflict, "address_locked",
                           state->status == "shipped" || state->status == "completed"
                               ? "This order has shipped: its shipping address can no longer change."
                               : "This order is " + state->status + ": its shipping address can no longer change.");
        auto before = *detail(tx, id);
        const auto& old = before.order.fulfilment.address;
        if (old && sameAddress(*old, address)) {
            after = std::move(before);
            return;
        }
        orders_.replaceShippingAddress(tx, id, address);
        orders_.addHistory(tx, {id, std::nullopt, state->status, source::kStaff, actor.userId, actor.email,
                                std::string(old ? "Shipping address corrected: " : "Shipping address added: ") + addressLine(address)});
        after = *detail(tx, id);
        audit::record(tx, actor, {"order.shipping_address_changed", "order", id, toJson(before), toJson(after)});
    });
    return after;
}

void OrderAdmin::describeActions(AdminOrderDetail& d) const {
    const auto& o = d.order;
    const bool paidStatus = o.status == "paid" || o.status == "shipped" || o.status == "completed" || o.status == "refunded" ||
                            (o.status == "cancelled" && o.paidAfterCancellation);
    d.order.cancellable = o.status == "paid" && paidHere(o);
    if (!paidStatus || !paidHere(o)) {
        d.refundableAmount = 0;
        return;
    }
    std::int64_t waiting = 0;
    for (const auto& r : d.refunds)
        if (r.status == "requested") waiting += r.amount;
    d.refundableAmount = std::max<std::int64_t>(0, d.order.totalAmount - d.order.refundedAmount - waiting);
}

mail::MailMessage cancelledMail(const AdminOrderDetail& d, const std::string& reason, std::int64_t refunded,
                                const std::string& publicUrl) {
    mail::MailMessage m;
    const auto& o = d.order;
    if (!o.customerEmail || !mail::isValidEmailAddress(*o.customerEmail)) return m;
    m.kind = "order_cancelled";
    m.to = *o.customerEmail;
    m.subject = "Your order " + o.orderNumber + " has been cancelled";
    std::string text = "We have cancelled your order " + o.orderNumber + ".\n\nReason: " + reason + "\n\n";
    if (refunded > 0) {
        text += "We have refunded " + catalog::formatMoney(refunded, o.currency) + " " + o.currency +
                " to the card or account you paid with; your bank may take 5 to 10 working days to show it.\n";
        for (auto it = d.invoices.rbegin(); it != d.invoices.rend(); ++it)
            if (it->kind == "credit_note") {
                text += "\nCredit note " + it->number + " (it adjusts the order's tax invoice): " + publicUrl +
                        "/account/invoices/" + it->number + "\n";
                break;
            }
    }
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
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

// Why bulk shipping leaves an order as it is (nothing when it may ship).
void refuseBulkShipUnlessPaid(const AdminOrderDetail& detail) {
    const auto& status = detail.order.status;
    if (status == "paid" && !detail.order.hasPhysical)
        throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Digital order: nothing to ship.");
    if (status == "paid") return;
    if (status == "pending") throw ApiError(ErrorKind::Conflict, "order_not_paid", "Not paid: cannot ship.");
    if (status == "shipped") throw ApiError(ErrorKind::Conflict, "order_already_shipped", "Already shipped.");
    if (status == "completed") throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Completed: nothing to ship.");
    if (status == "refunded") throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Refunded: cannot ship.");
    if (status == "cancelled")
        throw ApiError(ErrorKind::Conflict, "order_not_shippable",
                       detail.order.paidAfterCancellation ? "Cancelled (paid after cancellation): reinstate it first."
                                                          : "Cancelled: cannot ship.");
    throw ApiError(ErrorKind::Conflict, "order_not_shippable", "This order cannot ship.");
}

} // namespace

nlohmann::json toJson(const OrderAdmin::BulkShipResult& r) {
    nlohmann::json json = {{"id", r.id}, {"order_number", orNull(r.orderNumber)}, {"ok", r.ok}};
    if (!r.ok) {
        json["code"] = r.code;
        json["message"] = r.message;
    }
    return json;
}

std::vector<OrderAdmin::BulkShipResult> OrderAdmin::bulkShip(const audit::Actor& actor, const std::vector<std::string>& ids,
                                                             const std::optional<std::string>& carrier) {
    std::vector<BulkShipResult> results;
    std::vector<std::string> seen;
    for (const auto& id : ids) {
        if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
        seen.push_back(id);
        BulkShipResult result;
        result.id = id;
        try {
            auto after = transition(actor, id, "shipped", std::nullopt, {carrier, std::nullopt}, std::nullopt, refuseBulkShipUnlessPaid);
            result.orderNumber = after.order.orderNumber;
            result.ok = true;
        } catch (const ApiError& e) {
            result.code = e.code();
            result.message = e.what();
            if (auto order = this->order(id)) result.orderNumber = order->order.orderNumber;
        } catch (const std::exception& e) {
            // Only this order's transaction rolled back: the others keep their answers.
            Poco::Logger::get("billing").error("bulk ship of order %s: %s", id, std::string(e.what()));
            result.code = "internal_error";
            result.message = "Something went wrong: this order was not changed. Try again.";
        }
        results.push_back(std::move(result));
    }
    return results;
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

void OrderAdmin::releaseStock(db::Tx& tx, const std::string& id) {
    // Exactly once, whoever gets there first: the reservation's own guarded stock_state.
    for (const auto& r : checkouts_.releaseReservation(tx, id)) catalog::giveStock(tx, r.productId, r.quantity);
}

void OrderAdmin::expireAtProvider(const std::vector<std::pair<std::string, std::optional<std::string>>>& toExpire,
                                  const std::string& id) {
    for (const auto& [provider, sessionId] : toExpire) {
        if (!sessionId || provider != provider_.name()) continue;
        try {
            provider_.expireCheckoutSession(*sessionId);
        } catch (const std::exception& e) {
            // The order stays cancelled; a payment that still arrives is recorded as a late payment.
            Poco::Logger::get("billing").warning("could not expire %s checkout %s of order %s: %s", provider, *sessionId, id,
                                                 std::string(e.what()));
        }
    }
}

void OrderAdmin::cancelForCustomer(const audit::Actor& actor, const std::string& userId, const std::string& id) {
    std::vector<std::pair<std::string, std::optional<std::string>>> toExpire;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state || state->userId != userId) throw ApiError::notFound("order_not_found", "No such order.");
        if (state->status == "cancelled") return; // cancelled already (by them, staff or the expiry): nothing more
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        if (state->status != "pending" || checkouts_.completedForOrder(tx, id))
            throw ApiError(ErrorKind::Conflict, "order_not_cancellable",
                           "This order has been paid and can no longer be cancelled here: contact us for a refund.");
        auto before = *detail(tx, id);
        releaseStock(tx, id);
        toExpire = checkouts_.expireOpen(tx, id);
        moveOrder(tx, orders_, id, OrderPath::Customer, state->status, "cancelled", source::kCustomer, false, {});
        orders_.addHistory(tx, {id, state->status, "cancelled", source::kCustomer, actor.userId, actor.email,
                                std::string(kCancelledByCustomerNote)});
        audit::record(tx, actor, {"order.cancelled_by_customer", "order", id, toJson(before), toJson(*detail(tx, id))});
        tx.notify(db::topic::kCatalog); // stock may have changed
    });
    expireAtProvider(toExpire, id);
}

AdminOrderDetail OrderAdmin::refund(const audit::Actor& actor, const std::string& id, const RefundInput& in) {
    return refundClaimed(actor, id, in, std::nullopt);
}

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

AdminOrderDetail OrderAdmin::refundClaimed(const audit::Actor& actor, const std::string& id, const RefundInput& in,
                                           const std::optional<Claim>& held) {
    nlohmann::json before;
    std::optional<RefundRequest> request; // none: the refund was settled already (a repeat of a finished one)
    AdminOrderDetail after;
    std::optional<Claim> own; // this refund's claim of the order, when it is not made under Cancel order's
    db_.write([&](db::Tx& tx) {
        if (!orders_.lock(tx, id)) throw ApiError::notFound("order_not_found", "No such order.");
        if (!held) {
            own = claims_.claim(tx, {record_type::kOrder, id, "refund", std::nullopt, "{}"});
        }
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
        book_.settle(tx, row, settled, created.id, std::nullopt, {source::kStaff, actor.userId, actor.email, in.mailCustomer});
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

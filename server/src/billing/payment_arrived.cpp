// A payment arriving for an order (docs/billing.md, "Orders and checkout", "A payment for an order
// already paid"): checkout.session.completed and async_payment_succeeded, in the event inbox's
// transaction. The order's lock first; then the address snapshot, the move to paid along the
// lifecycle table (or a late payment, a payment to return, an amount held for staff), the ledger,
// the tax invoice and the customer's confirmation. A guest's payment link makes its own order.
#include "billing/event_processor.h"

#include "auth/user_repository.h"
#include "billing/order_admin.h"
#include "billing/orders/lifecycle.h"
#include "billing/orders/rules.h"
#include "billing/provider/stripe_json.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

namespace storefront::billing {

namespace {

using stripe_json::idOf;
using stripe_json::integer;
using stripe_json::member;
using stripe_json::str;

} // namespace

bool EventProcessor::checkoutCompleted(db::Tx& tx, const Event& e) {
    const auto paymentStatus = str(e.object, "payment_status").value_or("paid");
    const bool paid = paymentStatus == "paid" || paymentStatus == "no_payment_required" ||
                      e.type == "checkout.session.async_payment_succeeded";
    auto c = findCheckout(tx, e.provider, e.object);
    if (!c) {
        if (!paid) return false;
        auto orderId = guestOrder(tx, e.provider, e.object);
        if (!orderId) return false;
        recordOrderPayment(tx, e, *orderId);
        invoices_.issueForOrder(tx, *orderId);
        confirm(tx, *orderId);
        return true;
    }
    // The order row first, as every status change takes its locks (order, then checkout, then
    // stock), so this never deadlocks with a staff change of the same order on PostgreSQL.
    orders_.lock(tx, c->orderId);
    // Where it ships (a physical product): a snapshot on the order, written once.
    if (auto address = stripe_json::shippingFromSession(e.object)) orders_.setShippingAddress(tx, c->orderId, *address);
    if (!c->providerSessionId)
        if (auto sid = str(e.object, "id")) checkouts_.setProviderSessionId(tx, c->id, *sid);
    if (c->mode == "subscription" && c->userId && c->productId)
        if (auto sub = idOf(e.object, "subscription"))
            subscriptionEvents_.link(tx, {e.provider, *sub, *c->userId, *c->productId, idOf(e.object, "customer"), c->planId, paid});
    if (paid) markPaid(tx, e, *c);
    else checkouts_.markAwaitingPayment(tx, c->id); // an async payment method: the money follows (or not) later
    return true;
}

// Paid. The order row is locked first, so a staff change of the same order is either wholly before
// or wholly after this (docs/billing.md, "Staff decisions and late payments"):
// * cancelled by staff, or by the customer (POST /api/v1/account/orders/{id}/cancel): the order
//   stays cancelled. The money is recorded as a late payment and the order marked
//   paid_after_cancellation for staff to refund or reinstate (once per payment).
// * pending, or cancelled by the expiry job or the provider: paid (money was taken), stock settled
//   (taken again if the reservation had been given back and any is left).
// * already paid, shipped or completed: nothing but the checkout's status.
void EventProcessor::markPaid(db::Tx& tx, const Event& e, const Checkout& checkout) {
    auto state = orders_.lock(tx, checkout.orderId);
    if (!state) return;
    const auto c = checkouts_.findById(tx, checkout.id, e.provider).value_or(checkout); // as of the lock
    // A decision, not an expiry: staff cancelled it, or the customer did (their own cancel).
    const bool staffCancelled = state->status == "cancelled" && state->statusSource == source::kStaff;
    const bool customerCancelled = state->status == "cancelled" && state->statusSource == source::kCustomer;
    // A closed account's order is never paid into life: closing cancelled it (or, should a payment
    // beat nothing else, it is cancelled now) and the money waits for staff to refund, with no
    // invoice naming the person.
    const bool buyerClosed = c.userId && auth::UserRepository().presence(tx.session(), *c.userId) ==
                                             auth::UserRepository::Presence::Closed;
    if (staffCancelled || customerCancelled || buyerClosed) {
        const std::string who = staffCancelled ? "staff" : buyerClosed ? "the customer closed their account and" : "the customer";
        if (state->status == "pending") // a closed account's order that nothing had cancelled yet
            for (const auto& r : checkouts_.releaseReservation(tx, c.orderId)) catalog::giveStock(tx, r.productId, r.quantity);
        checkouts_.markCompletedOnly(tx, c.id);
        // Paid before staff cancelled (this is a repeat of that payment's news): not new money.
        if (orders_.paidByProvider(tx, c.orderId)) return;
        const auto reference = str(e.object, "payment_intent").value_or(str(e.object, "id").value_or(c.id));
        const auto amount = integer(e.object, "amount_total").value_or(state->totalAmount);
        const std::string currency = Poco::toUpper(str(e.object, "currency").value_or(state->currency));
        if (!orders_.addLatePayment(tx, {c.orderId, amount, currency, e.provider, reference, e.eventId,
                                         late_payment_reason::kAfterCancellation}))
            return;
        // Money that arrived is in the books whatever staff decide, with its tax invoice like any
        // other payment (a refund then issues a credit note); a closed account's gets none, so
        // nothing new names the person.
        if (c.mode != "subscription") {
            recordOrderPayment(tx, e, c.orderId);
            if (!buyerClosed) issueOrderInvoice(tx, e, c);
        }
        moveOrder(tx, orders_, c.orderId, OrderPath::Payment, state->status, "cancelled", state->statusSource.value_or(source::kCustomer), true,
             {});
        orders_.addHistory(tx, {c.orderId, std::string("cancelled"), "cancelled", source::kProvider, std::nullopt,
                                std::nullopt,
                                "Payment of " + catalog::formatMoney(amount, currency) + " " + currency +
                                    " received after " + who + " cancelled the order (" + e.type +
                                    "); refund or reinstate it."});
        Poco::Logger::get("billing").warning("order %s was paid after %s cancelled it: recorded for staff", c.orderId, who);
        return;
    }
    if (state->status != "pending" && state->status != "cancelled") {
        checkouts_.markCompleted(tx, c.id);
        // Paid already. By this payment (its news again): nothing more. Another way (Mark as
        // paid, another provider payment): the money is recorded for staff to return.
        if (c.mode != "subscription") recordDuplicatePayment(tx, e, c, *state);
        return;
    }
    const PaidMoney paid{integer(e.object, "amount_total"), str(e.object, "currency")}; // orders/payment_match.h
    if (holdIfMismatched(tx, orders_, checkouts_, c, paid, *state, e.type, [&] { recordOrderPayment(tx, e, c.orderId); }))
        return;
    if (c.productId)
        for (const auto& r : checkouts_.reclaimReservation(tx, c.orderId))
            if (!catalog::takeStock(tx, r.productId, r.quantity))
                Poco::Logger::get("billing").warning(
                    "checkout %s was paid after its stock was released and none is left: order %s needs attention", c.id,
                    c.orderId);
    checkouts_.markCompleted(tx, c.id);
    moveOrder(tx, orders_, c.orderId, OrderPath::Payment, state->status, "paid", source::kProvider, false, {});
    orders_.addHistory(tx, {c.orderId, state->status, "paid", source::kProvider, std::nullopt, std::nullopt,
                            "Payment received (" + e.type + ")"});
    // A subscription's money is its invoice's (invoice.paid), never the checkout's as well.
    if (c.mode != "subscription") recordOrderPayment(tx, e, c.orderId);
    issueOrderInvoice(tx, e, c);
    confirm(tx, c.orderId);
}

// A payment for an order paid already another way (docs/billing.md, "A payment for an order
// already paid"): in the ledger as money in, a late payment already_paid, a history row, and the
// order flagged "payment to return" for staff, who return it through the order's refunds (no
// credit note: the supply did not change). Nothing when it is the order's own payment again.
void EventProcessor::recordDuplicatePayment(db::Tx& tx, const Event& e, const Checkout& c, const OrderState& state) {
    const auto reference = idOf(e.object, "payment_intent").value_or(str(e.object, "id").value_or(c.id));
    const auto paid = ledger_.refundable(tx, c.orderId);
    if (!paid || (paid->paymentProvider == e.provider && paid->providerPaymentId == reference)) return;
    const auto amount = integer(e.object, "amount_total").value_or(state.totalAmount);
    const std::string currency = Poco::toUpper(str(e.object, "currency").value_or(state.currency));
    if (!catalog::isCurrency(currency)) return;
    if (!orders_.addLatePayment(tx, {c.orderId, amount, currency, e.provider, reference, e.eventId, late_payment_reason::kAlreadyPaid}))
        return; // its news again
    ledger_.add(tx, {e.provider + ":payment:" + reference, ledger_kind::kOrderPayment, amount, currency, e.provider, reference,
                     c.orderId, std::nullopt, std::nullopt, e.eventId});
    orders_.updatePaymentToReturn(tx, c.orderId);
    const std::string how = paid->paymentProvider == std::string(kManualPayment) ? "marked as paid by staff" : "paid by another payment";
    orders_.addHistory(tx, {c.orderId, std::nullopt, state.status, source::kProvider, std::nullopt, std::nullopt,
                            "Payment of " + catalog::formatMoney(amount, currency) + " " + currency + " received (" + e.type +
                                ") for an order already " + how + ": return it to the customer."});
    Poco::Logger::get("billing").warning("order %s was paid again (%s %s) after it was %s: recorded as a payment to return",
                                         c.orderId, e.provider, reference, how);
}

// The paid order's tax invoice. A subscription's first payment is also the provider's first
// invoice (invoice.paid, which may arrive before or after this): both issue under that invoice's
// key, so whichever comes second finds the first's, and the order is linked to it.
void EventProcessor::issueOrderInvoice(db::Tx& tx, const Event& e, const Checkout& c) {
    if (c.mode == "subscription") {
        auto providerInvoice = idOf(e.object, "invoice");
        if (!providerInvoice) return; // issued by the invoice.paid event alone
        const std::string key = "invoice:" + e.provider + ":" + *providerInvoice;
        invoices_.linkOrder(tx, key, c.orderId);
        invoices_.issueForOrder(tx, c.orderId, key);
        return;
    }
    invoices_.issueForOrder(tx, c.orderId);
}

// Queues the order's confirmation to its customer (when it has a usable address).
void EventProcessor::confirm(db::Tx& tx, const std::string& orderId) {
    auto order = orders_.find(tx, orderId);
    if (!order) return;
    auto message = orderConfirmation(*order, invoices_.forOrder(tx, orderId), publicUrl_);
    if (!message.to.empty()) outbox_.enqueue(tx, message);
}

void EventProcessor::recordOrderPayment(db::Tx& tx, const Event& e, const std::string& orderId) {
    auto state = orders_.lock(tx, orderId);
    if (!state) return;
    // Stripe refunds and disputes name the payment intent; the local provider's name its session.
    const auto payment = idOf(e.object, "payment_intent").value_or(str(e.object, "id").value_or(orderId));
    const auto amount = integer(e.object, "amount_total").value_or(state->totalAmount);
    const std::string currency = Poco::toUpper(str(e.object, "currency").value_or(state->currency));
    if (!catalog::isCurrency(currency)) return;
    ledger_.setProviderPayment(tx, orderId, e.provider, payment);
    ledger_.add(tx, {e.provider + ":payment:" + payment, ledger_kind::kOrderPayment, amount, currency, e.provider, payment,
                     orderId, std::nullopt, std::nullopt, e.eventId});
}

// A paid checkout we did not start (a payment link): a guest order, once per provider session.
std::optional<std::string> EventProcessor::guestOrder(db::Tx& tx, const std::string& provider, const nlohmann::json& session) {
    auto sessionId = str(session, "id");
    auto amount = integer(session, "amount_total");
    const std::string currency = Poco::toUpper(str(session, "currency").value_or("nzd"));
    if (!sessionId || !amount || *amount < 0 || !catalog::isCurrency(currency)) {
        Poco::Logger::get("billing").warning("%s checkout %s has no usable amount or currency; no order made", provider,
                                             sessionId.value_or("?"));
        return std::nullopt;
    }
    auto email = str(member(session, "customer_details"), "email");
    if (!email) email = str(session, "customer_email");
    auto id = orders_.insert(tx, {std::nullopt, "paid", *amount, currency, email, provider + ":" + *sessionId, source::kProvider});
    if (id) orders_.insertItem(tx, *id, {std::nullopt, std::nullopt, "Payment link purchase", 1, *amount});
    if (id)
        if (auto address = stripe_json::shippingFromSession(session)) orders_.setShippingAddress(tx, *id, *address);
    return id;
}

} // namespace storefront::billing

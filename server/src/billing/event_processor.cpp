#include "billing/event_processor.h"

#include "billing/orders/lifecycle.h"
#include "auth/user_repository.h"
#include "billing/orders/rules.h"
#include "billing/orders/shipping.h"
#include "billing/provider/stripe_json.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "common/text.h"
#include "mail/mail_message.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

#include <algorithm>

namespace storefront::billing {

namespace {

// ---- reading provider JSON: the one set of readers (provider/stripe_json.h) ----------------------

using stripe_json::idOf;
using stripe_json::integer;
using stripe_json::member;
using stripe_json::str;

std::optional<std::string> uuid(const std::optional<std::string>& value) {
    if (value && common::isUuid(*value)) return value;
    return std::nullopt;
}

// The period end of a subscription: on its items in the current API, on the object before it.
std::optional<std::int64_t> periodEnd(const nlohmann::json& subscription) {
    std::optional<std::int64_t> end;
    auto items = member(subscription, "items").find("data");
    if (items != member(subscription, "items").end() && items->is_array())
        for (const auto& item : *items)
            if (auto e = integer(item, "current_period_end")) end = std::max(end.value_or(*e), *e);
    if (!end) end = integer(subscription, "current_period_end");
    return end;
}

// The subscription an invoice belongs to: `parent.subscription_details.subscription` in the
// current API, `subscription` before it.
std::optional<std::string> invoiceSubscription(const nlohmann::json& invoice) {
    if (auto id = idOf(member(member(invoice, "parent"), "subscription_details"), "subscription")) return id;
    return idOf(invoice, "subscription");
}

std::optional<std::int64_t> invoicePeriodEnd(const nlohmann::json& invoice) {
    std::optional<std::int64_t> end;
    auto lines = member(invoice, "lines").find("data");
    if (lines != member(invoice, "lines").end() && lines->is_array())
        for (const auto& line : *lines)
            if (auto e = integer(member(line, "period"), "end")) end = std::max(end.value_or(*e), *e);
    return end;
}

std::optional<std::string> optTimestamp(const std::optional<std::int64_t>& epoch) {
    if (!epoch) return std::nullopt;
    return db::timestampFromEpoch(*epoch);
}

std::optional<std::string> laterOf(const std::optional<std::string>& a, const std::optional<std::string>& b) {
    if (!a) return b;
    if (!b) return a;
    return std::max(*a, *b); // same ISO-8601 UTC form: text order is time order
}

// "GST included: $1.96" / "GST: $0.00 (zero-rated export)", and the invoice's address.
std::string invoiceText(const InvoiceSummary& invoice, const std::string& publicUrl) {
    std::string text = "Tax invoice " + invoice.number + ": " + publicUrl + "/account/invoices/" + invoice.number + "\n";
    if (invoice.gstAmount == 0 && invoice.totalAmount > 0)
        text += "GST: " + catalog::formatMoney(0, invoice.currency) + " (zero-rated export)\n";
    else text += "GST content: " + catalog::formatMoney(invoice.gstAmount, invoice.currency) + " " + invoice.currency + "\n";
    return text;
}

} // namespace

mail::MailMessage orderConfirmation(const OrderSummary& order, const std::optional<InvoiceSummary>& invoice,
                                    const std::string& publicUrl) {
    mail::MailMessage m;
    if (!order.customerEmail || !mail::isValidEmailAddress(*order.customerEmail)) return m;
    m.kind = "order_confirmation";
    m.to = *order.customerEmail;
    m.subject = "Order " + order.orderNumber + " confirmed";
    std::string text = "Thank you for your order.\n\nOrder number: " + order.orderNumber + "\n\n";
    for (const auto& line : order.lines)
        text += "  " + std::to_string(line.quantity) + " x " + line.productName + "  " +
                catalog::formatMoney(line.unitAmount, order.currency) + "\n";
    text += "\nTotal paid: " + catalog::formatMoney(order.totalAmount, order.currency) + " " + order.currency +
            " (GST included)\n";
    if (order.fulfilment.address) {
        text += "\nShipping to:\n";
        for (const auto& line : addressLines(*order.fulfilment.address)) text += "  " + line + "\n";
    }
    if (invoice) text += invoiceText(*invoice, publicUrl);
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}

namespace {

} // namespace

const char* outcomeName(EventProcessor::Outcome outcome) {
    switch (outcome) {
    case EventProcessor::Outcome::Applied: return "applied";
    case EventProcessor::Outcome::Ignored: return "ignored";
    case EventProcessor::Outcome::Duplicate: return "duplicate";
    }
    return "unknown";
}

EventProcessor::Outcome EventProcessor::ingest(const std::string& provider, const std::string& payload) {
    auto event = nlohmann::json::parse(payload, nullptr, false);
    if (!event.is_object()) throw MalformedEvent("The event is not a JSON object.");
    auto id = str(event, "id");
    auto type = str(event, "type");
    auto created = integer(event, "created");
    const auto& data = member(event, "data");
    auto object = data.find("object");
    if (!id || !type || !created || object == data.end() || !object->is_object())
        throw MalformedEvent("The event needs id, type, created and data.object.");
    if (id->size() > 255 || type->size() > 255) throw MalformedEvent("The event id or type is too long.");

    Outcome outcome = Outcome::Duplicate;
    db_.write([&](db::Tx& tx) {
        const auto eventAt = db::timestampFromEpoch(*created);
        if (!checkouts_.recordEvent(tx, provider, *id, *type, eventAt, payload)) {
            outcome = Outcome::Duplicate;
            return;
        }
        const bool applied = apply(tx, {provider, *type, *object, eventAt, *id});
        outcome = applied ? Outcome::Applied : Outcome::Ignored;
        if (applied) checkouts_.markEventApplied(tx, provider, *id);
    });
    return outcome;
}

bool EventProcessor::apply(db::Tx& tx, const Event& e) {
    if (e.type == "checkout.session.completed" || e.type == "checkout.session.async_payment_succeeded")
        return checkoutCompleted(tx, e);
    if (e.type == "checkout.session.expired" || e.type == "checkout.session.async_payment_failed") {
        auto c = findCheckout(tx, e.provider, e.object);
        return c && markUnpaid(tx, e, *c);
    }
    if (e.type == "customer.subscription.created" || e.type == "customer.subscription.updated" ||
        e.type == "customer.subscription.deleted")
        return applySubscription(tx, e, e.type == "customer.subscription.deleted");
    if (e.type == "invoice.paid" || e.type == "invoice.payment_failed") {
        auto sub = invoiceSubscription(e.object);
        const bool recorded = e.type == "invoice.paid" && recordInvoicePayment(tx, e, sub);
        const bool applied = sub && applyInvoice(tx, e, *sub, invoicePeriodEnd(e.object), e.type == "invoice.paid");
        // The money was taken whether or not we know the subscription: the tax invoice is due.
        const bool issued = e.type == "invoice.paid" && issueSubscriptionInvoice(tx, e, sub);
        return recorded || applied || issued;
    }
    // Refunds and disputes (docs/billing.md, "The ledger, refunds and disputes").
    if (e.type == "charge.refunded") return refunds_.applyChargeRefunded(tx, e.provider, stripe_json::readCharge(e.object), e.eventId);
    if (e.type == "charge.refund.updated" || e.type == "refund.created" || e.type == "refund.updated" ||
        e.type == "refund.failed") {
        auto refund = stripe_json::readRefund(e.object);
        return refund && refunds_.applyRefund(tx, e.provider, *refund, e.eventId);
    }
    if (e.type == "charge.dispute.created" || e.type == "charge.dispute.updated" || e.type == "charge.dispute.closed") {
        auto dispute = stripe_json::readDispute(e.object);
        return dispute && refunds_.applyDispute(tx, e.provider, *dispute, e.eventId);
    }
    return false;
}

// ---- checkouts and orders --------------------------------------------------------------------

// The checkout a checkout.session event is about: our id from metadata or client_reference_id,
// else the provider's session id.
std::optional<Checkout> EventProcessor::findCheckout(db::Tx& tx, const std::string& provider, const nlohmann::json& session) {
    for (const auto& candidate : {str(member(session, "metadata"), "checkout_id"), str(session, "client_reference_id")})
        if (auto id = uuid(candidate))
            if (auto c = checkouts_.findById(tx, *id, provider)) return c;
    if (auto sid = str(session, "id")) return checkouts_.findByProviderSession(tx, provider, *sid);
    return std::nullopt;
}

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
    if (auto address = shippingFromSession(e.object)) orders_.setShippingAddress(tx, c->orderId, *address);
    if (!c->providerSessionId)
        if (auto sid = str(e.object, "id")) checkouts_.setProviderSessionId(tx, c->id, *sid);
    if (c->mode == "subscription" && c->userId && c->productId)
        if (auto sub = idOf(e.object, "subscription")) linkSubscription(tx, e.provider, *sub, idOf(e.object, "customer"), *c, paid);
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
        if (!orders_.addLatePayment(tx, {c.orderId, amount, currency, e.provider, reference, e.eventId})) return;
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

// Not paid (expired, abandoned, async payment failed): a pending order is cancelled and its stock
// given back (exactly once: the reservation's own guard). Any other order is left alone.
bool EventProcessor::markUnpaid(db::Tx& tx, const Event& e, const Checkout& c) {
    if (!orders_.lock(tx, c.orderId)) return false;
    if (!orders_.cancelPending(tx, c.orderId, source::kProvider, "Not paid (" + e.type + ")")) return false;
    for (const auto& r : checkouts_.releaseReservation(tx, c.orderId)) catalog::giveStock(tx, r.productId, r.quantity);
    checkouts_.markExpired(tx, c.id);
    return true;
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

bool EventProcessor::recordInvoicePayment(db::Tx& tx, const Event& e, const std::optional<std::string>& subscriptionProviderId) {
    auto invoice = str(e.object, "id");
    auto amount = integer(e.object, "amount_paid");
    const std::string currency = Poco::toUpper(str(e.object, "currency").value_or(""));
    if (!invoice || !amount || *amount <= 0 || !catalog::isCurrency(currency)) return false;
    std::optional<std::string> subscriptionId;
    if (subscriptionProviderId)
        if (auto row = subscriptions_.findByProvider(tx, e.provider, *subscriptionProviderId)) subscriptionId = row->id;
    return ledger_.add(tx, {e.provider + ":invoice:" + *invoice, ledger_kind::kSubscriptionPayment, *amount, currency,
                            e.provider, *invoice, std::nullopt, subscriptionId, std::nullopt, e.eventId});
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
        if (auto address = shippingFromSession(session)) orders_.setShippingAddress(tx, *id, *address);
    return id;
}

// ---- subscriptions -----------------------------------------------------------------------------

void EventProcessor::insertSubscription(db::Tx& tx, NewSubscription n) {
    if (isLive(n.status) && subscriptions_.otherLive(tx, n.userId, n.productId, "")) {
        Poco::Logger::get("billing").warning("user %s already has a live subscription to product %s; %s %s is kept as pending",
                                             n.userId, n.productId, n.provider, n.providerId);
        n.status = "pending";
    }
    subscriptions_.insert(tx, n);
}

// checkout.session.completed in subscription mode: makes sure the subscription exists even before
// its own events arrive. It claims no event time, so those events still apply in full.
void EventProcessor::linkSubscription(db::Tx& tx, const std::string& provider, const std::string& providerId,
                                      const std::optional<std::string>& customerId, const Checkout& c, bool paid) {
    if (subscriptions_.findByProvider(tx, provider, providerId)) return;
    insertSubscription(tx, {*c.userId, *c.productId, paid ? "active" : "pending", provider, providerId, c.planId, customerId,
                            std::nullopt, std::nullopt, false});
}

void EventProcessor::updateSubscription(db::Tx& tx, const SubscriptionRow& row, std::string status,
                                        const std::optional<std::string>& periodEnd, std::optional<bool> cancelAtPeriodEnd,
                                        const std::optional<std::string>& eventAt) {
    if (isLive(status) && !isLive(row.status) && subscriptions_.otherLive(tx, row.userId, row.productId, row.id)) {
        Poco::Logger::get("billing").warning("subscription %s cannot become %s: the user has another live one", row.id, status);
        status = row.status;
    }
    // The period end only moves forward; so does the event time.
    subscriptions_.update(tx, row.id, status, laterOf(row.periodEnd, periodEnd), cancelAtPeriodEnd,
                          laterOf(row.eventAt, eventAt));
}

// A subscription we have not stored yet: its owner from the metadata (or the provider's customer).
bool EventProcessor::insertFromProvider(db::Tx& tx, const Event& e, const std::string& providerId, const std::string& status,
                                        const std::optional<std::string>& end, bool cancelAtPeriodEnd) {
    const auto& metadata = member(e.object, "metadata");
    auto customer = idOf(e.object, "customer");
    std::optional<std::string> userId = uuid(str(metadata, "user_id"));
    if (userId && !subscriptions_.userExists(tx, *userId)) userId.reset();
    if (!userId && customer) userId = customers_.userOf(tx, e.provider, *customer);
    std::optional<std::string> productId = uuid(str(metadata, "product_id"));
    if (productId && !subscriptions_.productExists(tx, *productId)) productId.reset();
    std::optional<std::string> planId = uuid(str(metadata, "pricing_plan_id"));
    if (planId && !subscriptions_.planExists(tx, *planId)) planId.reset();
    if (!userId || !productId) {
        Poco::Logger::get("billing").warning("%s subscription %s names no user or product of ours; ignored", e.provider,
                                             providerId);
        return false;
    }
    insertSubscription(tx, {*userId, *productId, status, e.provider, providerId, planId, customer, end, e.at, cancelAtPeriodEnd});
    return true;
}

// customer.subscription.created / updated / deleted.
bool EventProcessor::applySubscription(db::Tx& tx, const Event& e, bool deleted) {
    auto providerId = str(e.object, "id");
    if (!providerId) return false;
    const std::string status = deleted ? "cancelled" : statusFromStripe(str(e.object, "status").value_or(""));
    const auto end = optTimestamp(periodEnd(e.object));
    auto capeIt = e.object.find("cancel_at_period_end");
    const bool cape = capeIt != e.object.end() && capeIt->is_boolean() && capeIt->get<bool>();

    auto row = subscriptions_.findByProvider(tx, e.provider, *providerId);
    if (!row) return insertFromProvider(tx, e, *providerId, status, end, cape);
    if (row->status == "cancelled" || row->status == "expired") return false; // ended subscriptions stay ended
    if (!deleted && row->eventAt && e.at < *row->eventAt) {
        // Older than what we have: only a later period end is news.
        updateSubscription(tx, *row, row->status, end, std::nullopt, std::nullopt);
        return true;
    }
    updateSubscription(tx, *row, status, end, cape, e.at);
    return true;
}

// invoice.paid extends the period and makes the subscription active; invoice.payment_failed makes
// it pending. Either only when no newer event has spoken.
bool EventProcessor::applyInvoice(db::Tx& tx, const Event& e, const std::string& providerId,
                                  const std::optional<std::int64_t>& invoiceEnd, bool paid) {
    auto row = subscriptions_.findByProvider(tx, e.provider, providerId);
    if (!row || row->status == "cancelled" || row->status == "expired") return false;
    const auto end = paid ? optTimestamp(invoiceEnd) : std::nullopt;
    if (row->eventAt && e.at < *row->eventAt) {
        updateSubscription(tx, *row, row->status, end, std::nullopt, std::nullopt);
        return true;
    }
    const std::string status = paid ? (row->status == "trialing" ? "trialing" : "active") : "pending";
    updateSubscription(tx, *row, status, end, std::nullopt, e.at);
    return true;
}

// invoice.paid: a tax invoice for the money taken, under the provider's invoice id (once), and,
// for a renewal (not the first invoice of a subscription, which its checkout confirms), a receipt
// that links to it. Nothing for an invoice of zero (a trial).
bool EventProcessor::issueSubscriptionInvoice(db::Tx& tx, const Event& e, const std::optional<std::string>& subscriptionId) {
    auto providerInvoice = str(e.object, "id");
    auto amount = integer(e.object, "amount_paid");
    if (!providerInvoice || !amount || *amount <= 0) return false;
    NewInvoice n;
    n.sourceKey = "invoice:" + e.provider + ":" + *providerInvoice;
    n.currency = Poco::toUpper(str(e.object, "currency").value_or("nzd"));
    n.totalAmount = *amount;
    std::optional<SubscriptionRow> row;
    if (subscriptionId) row = subscriptions_.findByProvider(tx, e.provider, *subscriptionId);
    if (row) {
        n.userId = row->userId;
        n.subscriptionId = row->id;
    } else if (auto customer = idOf(e.object, "customer")) n.userId = customers_.userOf(tx, e.provider, *customer);
    n.buyerEmail = str(e.object, "customer_email");
    n.buyerName = str(e.object, "customer_name");
    invoices_.fillBuyer(tx, n);
    auto lines = member(e.object, "lines").find("data");
    if (lines != member(e.object, "lines").end() && lines->is_array())
        for (const auto& line : *lines)
            if (auto lineAmount = integer(line, "amount"))
                n.lines.push_back({str(line, "description").value_or("Subscription"), integer(line, "quantity").value_or(1),
                                   *lineAmount});
    if (n.lines.empty()) n.lines.push_back({"Subscription", 1, *amount});
    bool issued = false;
    const auto number = invoices_.issue(tx, n, &issued);
    const auto reason = str(e.object, "billing_reason").value_or("");
    if (!issued || reason == "subscription_create" || !n.buyerEmail || !mail::isValidEmailAddress(*n.buyerEmail)) return true;
    // A renewal: the receipt states the amount and GST content and links to the invoice.
    auto summary = invoices_.summary(tx, number);
    if (!summary) return true;
    mail::MailMessage m;
    m.kind = "renewal_receipt";
    m.to = *n.buyerEmail;
    m.subject = "Receipt for your subscription renewal (" + number + ")";
    m.text = "Your subscription has renewed.\n\nAmount paid: " + catalog::formatMoney(n.totalAmount, n.currency) + " " +
             n.currency + " (GST included)\n" + invoiceText(*summary, publicUrl_) +
             "\nManage your subscriptions: " + publicUrl_ + "/dashboard\n";
    outbox_.enqueue(tx, m);
    return true;
}

} // namespace storefront::billing

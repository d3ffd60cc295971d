#include "billing/event_processor.h"

#include "billing/order_admin.h"

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
    if (invoice) text += invoiceMailText(*invoice, publicUrl);
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}

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
        return subscriptionEvents_.applySubscription(tx, e, e.type == "customer.subscription.deleted");
    if (e.type == "invoice.paid" || e.type == "invoice.payment_failed") return subscriptionEvents_.applyInvoice(tx, e);
    // Refunds and disputes (docs/billing.md, "The ledger, refunds and disputes").
    // A payment of ours is an order's or a subscription invoice's: the order's books first.
    if (e.type == "charge.refunded") {
        const auto charge = stripe_json::readCharge(e.object);
        if (refunds_.applyChargeRefunded(tx, e.provider, charge, e.eventId)) return true;
        bool applied = false;
        for (const auto& refund : charge.refunds) applied = subscriptionRefunds_.applyProviderRefund(tx, e.provider, refund, e.eventId) || applied;
        return applied;
    }
    if (e.type == "charge.refund.updated" || e.type == "refund.created" || e.type == "refund.updated" ||
        e.type == "refund.failed") {
        auto refund = stripe_json::readRefund(e.object);
        if (!refund) return false;
        return refunds_.applyRefund(tx, e.provider, *refund, e.eventId) ||
               subscriptionRefunds_.applyProviderRefund(tx, e.provider, *refund, e.eventId);
    }
    if (e.type == "invoice_payment.paid") return subscriptionEvents_.applyInvoicePayment(tx, e);
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

// Not paid (expired, abandoned, async payment failed): a pending order is cancelled through the
// lifecycle table and its stock given back (exactly once: the reservation's own guard).
bool EventProcessor::markUnpaid(db::Tx& tx, const Event& e, const Checkout& c) {
    if (!cancelUnpaid(tx, orders_, c.orderId, source::kProvider, "Not paid (" + e.type + ")")) return false;
    for (const auto& r : checkouts_.releaseReservation(tx, c.orderId)) catalog::giveStock(tx, r.productId, r.quantity);
    checkouts_.markExpired(tx, c.id);
    return true;
}

} // namespace storefront::billing

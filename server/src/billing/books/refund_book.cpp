#include "billing/books/refund_book.h"

#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "common/text.h"
#include "mail/mail_message.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

namespace storefront::billing {

namespace {


mail::MailMessage refundMail(const RefundableOrder& order, const Refund& refund, const std::optional<std::string>& creditNote,
                             const std::string& publicUrl) {
    mail::MailMessage m;
    if (!order.customerEmail || !mail::isValidEmailAddress(*order.customerEmail)) return m;
    const auto number = order.orderNumber.value_or("");
    m.kind = "refund";
    m.to = *order.customerEmail;
    m.subject = "Refund for order " + number;
    std::string text = "We have refunded " + catalog::formatMoney(refund.amount, refund.currency) + " " + refund.currency +
                       " for order " + number + ".\n\n";
    if (order.refundedAmount >= order.totalAmount) text += "The order is now refunded in full.\n\n";
    else
        text += "Refunded so far: " + catalog::formatMoney(order.refundedAmount, order.currency) + " of " +
                catalog::formatMoney(order.totalAmount, order.currency) + " " + order.currency + ".\n\n";
    text += "The money goes back to the card or account you paid with; your bank may take 5 to 10 working days to "
            "show it.\n";
    if (creditNote)
        text += "\nCredit note " + *creditNote + " (it adjusts the order's tax invoice): " + publicUrl + "/account/invoices/" +
                *creditNote + "\n";
    m.text = std::move(text);
    return m;
}

} // namespace

bool refundMovesMoney(const std::string& status) { return status == "pending" || status == "succeeded"; }

void RefundBook::settle(db::Tx& tx, const Refund& refund, const std::string& status,
                        const std::optional<std::string>& providerRefundId, const std::optional<std::string>& eventId,
                        const Actor& actor) {
    const bool wasOut = refundMovesMoney(refund.status);
    const bool out = refundMovesMoney(status);
    if (refund.status == status && (!providerRefundId || refund.providerRefundId == providerRefundId)) return;
    // A refund that failed or was cancelled stays so: a later, older status changes nothing.
    if (refund.status == "failed" || refund.status == "canceled") return;
    ledger_.setRefundStatus(tx, refund.id, status, providerRefundId);
    const auto refundId = providerRefundId ? providerRefundId : refund.providerRefundId;
    if (refund.latePaymentId) {
        settleReturn(tx, refund, wasOut, out, status, refundId, eventId, actor);
        return;
    }
    if (!wasOut && out) {
        ledger_.add(tx, {"refund:" + refund.id, ledger_kind::kRefund, -refund.amount, refund.currency, refund.provider,
                         refundId, refund.orderId, std::nullopt, refund.id, eventId});
        ledger_.addRefunded(tx, refund.orderId, refund.amount);
        auto order = ledger_.refundable(tx, refund.orderId);
        if (!order) return;
        const auto amountText = catalog::formatMoney(refund.amount, refund.currency) + " " + refund.currency;
        const bool full = order->refundedAmount >= order->totalAmount;
        const bool wasPaid = order->status == "paid" || order->status == "shipped" || order->status == "completed";
        const std::string to = full && wasPaid ? "refunded" : order->status;
        if (to != order->status) moveOrder(tx, orders_, refund.orderId, OrderPath::Refund, order->status, to, actor.source, false, {});
        const auto lines = ledger_.refundLines(tx, refund.id);
        std::vector<CreditedLine> credited;
        if (!lines.empty()) {
            const auto items = ledger_.refundableItems(tx, refund.orderId);
            for (const auto& line : lines)
                for (const auto& item : items)
                    if (item.id == line.orderItemId)
                        credited.push_back({item.id, item.productName, line.quantity, item.unitAmount * line.quantity});
        }
        // A refund is a history row of its own, naming what it gave back ("Refunded 1 x USB to
        // RS-232 Serial Cable, $49.00"); it is a status move only when it moves the status.
        std::string note;
        for (const auto& c : credited)
            note += (note.empty() ? "Refunded " : ", ") + std::to_string(c.quantity) + " x " + c.description;
        note = note.empty() ? "Refund of " + amountText : note + ", " + amountText;
        if (refund.source == "provider") note += " made at the payment provider";
        if (refund.reason) note += ": " + *refund.reason;
        if (actor.historyRow)
            orders_.addHistory(tx, {refund.orderId, to != order->status ? std::optional(order->status) : std::nullopt, to,
                                    actor.source, actor.id, actor.email, note});
        if (refund.restock) restock(tx, refund.orderId, lines);
        // The credit note adjusting the order's tax invoice (docs/billing.md, "Tax invoices"),
        // listing the refunded lines. An order paid before tax invoices were issued has none to
        // adjust: the refund stands without one.
        std::optional<std::string> creditNote;
        try {
            creditNote = invoices_.issueCreditNote(tx, refund.orderId, refund.id, refund.amount,
                                                   refund.reason.value_or("Refund"), credited);
        } catch (const CreditNoteRefused&) {
        }
        auto message = refundMail(*order, refund, creditNote, publicUrl_);
        if (!message.to.empty() && actor.mailCustomer) outbox_.enqueue(tx, message);
    } else if (wasOut && !out) {
        // The provider could not pay it out after all: the money is ours again.
        ledger_.add(tx, {"refund-reversal:" + refund.id, ledger_kind::kRefundReversal, refund.amount, refund.currency,
                         refund.provider, refundId, refund.orderId, std::nullopt, refund.id, eventId});
        ledger_.addRefunded(tx, refund.orderId, -refund.amount);
        auto order = ledger_.refundable(tx, refund.orderId);
        if (!order) return;
        std::string to = order->status;
        if (order->status == "refunded") to = ledger_.statusBeforeRefunded(tx, refund.orderId).value_or("paid");
        if (to != order->status) moveOrder(tx, orders_, refund.orderId, OrderPath::Refund, order->status, to, actor.source, false, {});
        orders_.addHistory(tx, {refund.orderId, order->status, to, actor.source, actor.id, actor.email,
                                "Refund of " + catalog::formatMoney(refund.amount, refund.currency) + " " + refund.currency +
                                    " " + status + " at the payment provider"});
        // Its credit note, if one was issued, is reversed by a debit note (the same sequence).
        invoices_.issueDebitNote(tx, refund.id, "The refund " + status + " at the payment provider");
    }
}

void RefundBook::restock(db::Tx& tx, const std::string& orderId, const std::vector<RefundLine>& lines) {
    // With lines: exactly those quantities. Without (allowed only for the refund that completes
    // the order): whatever of each line has not gone back yet.
    std::vector<RefundLine> back = lines;
    if (back.empty())
        for (const auto& item : ledger_.refundableItems(tx, orderId))
            if (item.quantity > item.restockedQuantity) back.push_back({item.id, item.quantity - item.restockedQuantity});
    bool any = false;
    for (const auto& line : back) {
        const auto r = ledger_.restockLine(tx, orderId, line.orderItemId, line.quantity);
        if (r.quantity <= 0) continue;
        any = true;
        if (r.productId && checkouts_.returnPart(tx, orderId, *r.productId, r.quantity))
            catalog::giveStock(tx, *r.productId, r.quantity);
    }
    if (any && lines.empty()) ledger_.markRestocked(tx, orderId);
    if (any) tx.notify(db::topic::kCatalog);
}

std::optional<std::string> RefundBook::orderOfPayment(db::Tx& tx, const std::string& provider, const ProviderPaymentRef& payment) {
    if (payment.paymentId)
        if (auto order = ledger_.orderOfPayment(tx, provider, *payment.paymentId)) return order;
    if (payment.orderId && ledger_.refundable(tx, *payment.orderId)) return payment.orderId;
    return std::nullopt;
}

bool RefundBook::applyRefund(db::Tx& tx, const std::string& provider, const ProviderRefund& news, const std::string& eventId) {
    const auto* reId = &news.id;
    const auto* amount = &news.amount;
    const auto& currency = news.currency;
    const auto& status = news.status;

    auto row = ledger_.refundByProviderId(tx, provider, *reId);
    if (!row && news.ourRefundId)
        if (auto r = ledger_.refund(tx, *news.ourRefundId); r && r->provider == provider) row = r;
    std::optional<std::string> orderId = row ? std::optional(row->orderId) : orderOfPayment(tx, provider, news.payment);
    if (!orderId) return false;
    if (!orders_.lock(tx, *orderId)) return false;
    if (row) row = ledger_.refund(tx, row->id); // as of the lock
    if (!row) {
        if (auto announced = ledger_.unmatchedProviderRefund(tx, *orderId, *amount)) {
            ledger_.setRefundStatus(tx, announced->id, announced->status, *reId);
            row = ledger_.refund(tx, announced->id);
        } else {
            const auto id = ledger_.insertRefund(tx, {*orderId, *amount, currency, news.reason, false, "requested", "provider",
                                                      provider, *reId, std::nullopt, std::nullopt, std::nullopt, {}, std::nullopt});
            row = ledger_.refund(tx, id);
        }
    }
    settle(tx, *row, status, *reId, eventId, Actor{});
    return true;
}

// A payment for an order already paid, going back (Refund::latePaymentId): money out (or back in)
// in the ledger and a history row, the order's payments-to-return flag updated; the order's
// refunded amount and status stay, and no credit or debit note is issued (the supply did not change).
void RefundBook::settleReturn(db::Tx& tx, const Refund& refund, bool wasOut, bool out, const std::string& status,
                              const std::optional<std::string>& refundId, const std::optional<std::string>& eventId,
                              const Actor& actor) {
    if (wasOut == out) return;
    auto order = ledger_.refundable(tx, refund.orderId);
    if (!order) return;
    const auto amountText = catalog::formatMoney(refund.amount, refund.currency) + " " + refund.currency;
    if (out) {
        ledger_.add(tx, {"refund:" + refund.id, ledger_kind::kRefund, -refund.amount, refund.currency, refund.provider, refundId,
                         refund.orderId, std::nullopt, refund.id, eventId});
        orders_.addHistory(tx, {refund.orderId, std::nullopt, order->status, actor.source, actor.id, actor.email,
                                "Returned " + amountText + " paid twice (the order stays paid)" +
                                    (refund.reason ? ": " + *refund.reason : std::string())});
        auto message = refundMail(*order, refund, std::nullopt, publicUrl_);
        if (!message.to.empty() && actor.mailCustomer) outbox_.enqueue(tx, message);
    } else {
        ledger_.add(tx, {"refund-reversal:" + refund.id, ledger_kind::kRefundReversal, refund.amount, refund.currency,
                         refund.provider, refundId, refund.orderId, std::nullopt, refund.id, eventId});
        orders_.addHistory(tx, {refund.orderId, std::nullopt, order->status, actor.source, actor.id, actor.email,
                                "Return of " + amountText + " paid twice " + status + " at the payment provider"});
    }
    orders_.updatePaymentToReturn(tx, refund.orderId);
}

bool RefundBook::applyChargeRefunded(db::Tx& tx, const std::string& provider, const ProviderCharge& charge,
                                     const std::string& eventId) {
    // A payment for an order already paid, returned: its refunds are ours, matched by id; the
    // order's refunded total is not about that payment.
    if (charge.payment.paymentId && orders_.isReturnablePayment(tx, provider, *charge.payment.paymentId)) {
        for (const auto& refund : charge.refunds) applyRefund(tx, provider, refund, eventId);
        return true;
    }
    auto orderId = orderOfPayment(tx, provider, charge.payment);
    if (!orderId) return false;
    for (const auto& refund : charge.refunds) applyRefund(tx, provider, refund, eventId);
    if (!orders_.lock(tx, *orderId)) return false;
    const auto& refundedAtProvider = charge.amountRefunded;
    auto order = ledger_.refundable(tx, *orderId);
    if (!refundedAtProvider || !order) return true;
    // What we know of: refunds counted already, and ours still waiting for the provider's answer
    // (the provider has them in amount_refunded already when its event overtakes that answer).
    std::int64_t known = order->refundedAmount;
    for (const auto& r : ledger_.refundsOf(tx, *orderId))
        if (r.status == "requested") known += r.amount;
    const auto missing = *refundedAtProvider - known;
    if (missing <= 0) return true;
    const auto id = ledger_.insertRefund(tx, {*orderId, missing, order->currency, std::nullopt, false, "requested", "provider",
                                              provider, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {}, std::nullopt});
    settle(tx, *ledger_.refund(tx, id), "succeeded", std::nullopt, eventId, Actor{});
    return true;
}

bool RefundBook::applyDispute(db::Tx& tx, const std::string& provider, const ProviderDispute& dispute,
                              const std::string& eventId) {
    const auto* id = &dispute.id;
    const auto* amount = &dispute.amount;
    const auto& currency = dispute.currency;
    const auto& status = dispute.status;
    auto orderId = orderOfPayment(tx, provider, dispute.payment);
    if (orderId) {
        if (!orders_.lock(tx, *orderId)) orderId.reset();
        else ledger_.flagDisputed(tx, *orderId);
    }
    const auto before = ledger_.upsertDispute(tx, orderId, provider, *id, *amount, currency, status, dispute.reason);
    if (orderId && !before)
        orders_.addHistory(tx, {*orderId, std::nullopt, ledger_.refundable(tx, *orderId)->status, source::kProvider,
                                std::nullopt, std::nullopt,
                                "Dispute opened (" + dispute.reason.value_or("no reason given") + ") for " +
                                    catalog::formatMoney(*amount, currency) + " " + currency});
    if (status == "lost")
        ledger_.add(tx, {provider + ":dispute:" + *id, ledger_kind::kDisputeLost, -*amount, currency, provider, *id, orderId,
                         std::nullopt, std::nullopt, eventId});
    if (!orderId)
        Poco::Logger::get("billing").warning("%s dispute %s names no payment of ours; recorded without an order", provider, *id);
    return true;
}

} // namespace storefront::billing

#include "billing/subscriptions/invoice_refunds.h"

#include "billing/books/refund_book.h"
#include "catalog/money.h"

#include <Poco/Logger.h>

namespace storefront::billing {

void SubscriptionRefundBook::settle(db::Tx& tx, const SubscriptionRefund& refund, const SubscriptionPayment& payment,
                                    const std::string& status, const std::optional<std::string>& providerRefundId,
                                    const std::optional<std::string>& eventId) {
    const bool moved = refundMovesMoney(refund.status), moves = refundMovesMoney(status);
    payments_.setRefundStatus(tx, refund.id, status, providerRefundId);
    const auto providerId = providerRefundId ? providerRefundId : refund.providerRefundId;
    if (!moved && moves) {
        if (!ledger_.add(tx, {"refund:" + refund.id, ledger_kind::kRefund, -refund.amount, refund.currency, payment.provider,
                              providerId, std::nullopt, payment.subscriptionId, refund.id, eventId}))
            return; // already in the books
        payments_.addRefunded(tx, payment.id, refund.amount);
        std::optional<std::string> note;
        try {
            note = invoices_.issueSubscriptionCreditNote(tx, "invoice:" + payment.provider + ":" + payment.providerInvoiceId,
                                                         refund.id, refund.amount, refund.reason.value_or(""));
        } catch (const CreditNoteRefused& e) {
            Poco::Logger::get("billing").warning("subscription refund %s: no credit note: %s", refund.id, std::string(e.what()));
        }
        auto row = subscriptions_.find(tx, payment.subscriptionId);
        if (!row) return;
        mail::MailMessage m;
        m.kind = "refund";
        m.to = subscriptions_.ownerEmail(tx, row->userId);
        if (!mail::isValidEmailAddress(m.to)) return;
        const auto product = subscriptions_.productName(tx, row->productId);
        m.subject = "Refund for your " + product + " subscription";
        m.text = "We have refunded " + catalog::formatMoney(refund.amount, refund.currency) + " " + refund.currency + " of your " +
                 product + " subscription payment.\n\nThe money goes back to the card or account you paid with; your bank may "
                 "take 5 to 10 working days to show it.\n";
        if (note)
            m.text += "\nCredit note " + *note + " (it adjusts the payment's tax invoice): " + publicUrl_ + "/account/invoices/" +
                      *note + "\n";
        outbox_.enqueue(tx, m);
    } else if (moved && !moves) {
        // It failed after it counted: the money is back with us.
        if (!ledger_.add(tx, {"refund-reversal:" + refund.id, ledger_kind::kRefundReversal, refund.amount, refund.currency,
                              payment.provider, providerId, std::nullopt, payment.subscriptionId, refund.id, eventId}))
            return;
        payments_.addRefunded(tx, payment.id, -refund.amount);
        invoices_.issueDebitNote(tx, refund.id, "the refund " + status + " at the payment provider");
    }
}

bool SubscriptionRefundBook::applyProviderRefund(db::Tx& tx, const std::string& provider, const ProviderRefund& r,
                                                 const std::string& eventId) {
    auto refund = payments_.refundByProviderId(tx, r.id);
    if (!refund && r.ourRefundId) refund = payments_.refund(tx, *r.ourRefundId);
    std::optional<SubscriptionPayment> payment;
    if (refund) payment = payments_.find(tx, refund->paymentId);
    else if (r.payment.paymentId) payment = payments_.byProviderPayment(tx, provider, *r.payment.paymentId);
    if (!payment) return false;
    if (!refund) {
        // Made in the provider's dashboard: ours from now on, as its first news says.
        NewSubscriptionRefund n;
        n.paymentId = payment->id;
        n.amount = r.amount;
        n.currency = r.currency;
        n.reason = r.reason;
        n.status = "requested";
        n.source = "provider";
        n.providerRefundId = r.id;
        refund = payments_.refund(tx, payments_.insertRefund(tx, n));
    }
    if (refund->status == r.status) return true;
    settle(tx, *refund, *payment, r.status, r.id, eventId);
    return true;
}

} // namespace storefront::billing

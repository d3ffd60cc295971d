#pragma once
// What a refund does to the books, whoever started it (staff through our API, or someone in the
// provider's dashboard), and what a dispute does (docs/billing.md, "The ledger, refunds and
// disputes"). Everything runs inside the caller's transaction, under the order row's lock, and each
// money effect happens once: a refund enters the ledger (and orders.refunded_amount) when it first
// reaches pending or succeeded and leaves it again only if it then fails; a fully refunded order
// becomes `refunded`; `restock` gives the items back once per order; the customer is mailed once.
#include "billing/books/invoice_repository.h"
#include "billing/books/ledger_repository.h"
#include "billing/orders/checkout_repository.h"
#include "billing/orders/order_repository.h"
#include "billing/provider/provider_money.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

class RefundBook {
public:
    // A refund that counts issues its credit note (tax invoice sequence) in the same transaction;
    // the refund mail links to it under `publicUrl`.
    RefundBook(db::Database& db, mail::Outbox& outbox, InvoiceRepository& invoices, std::string publicUrl)
        : outbox_(outbox), invoices_(invoices), publicUrl_(std::move(publicUrl)), checkouts_(db) {}

    struct Actor {
        std::string source = "provider"; // staff | provider
        std::optional<std::string> id, email;
        bool mailCustomer = true; // false: the caller mails the customer itself (Cancel order)
        bool historyRow = true;   // false: the caller's own history row names the refund (Cancel order)
    };

    // Moves the refund to the provider's status. The order row must be locked by the caller.
    void settle(db::Tx& tx, const Refund& refund, const std::string& status,
                const std::optional<std::string>& providerRefundId, const std::optional<std::string>& eventId,
                const Actor& actor);

    // The provider's news, read from its JSON by the provider's readers (provider/stripe_json.h):
    // the books never parse a provider's payload.
    // A refund (charge.refund.updated, refund.created, refund.updated): matched to its row by the
    // provider's id, else by our metadata refund_id, else to a refund the charge announced without
    // an id; otherwise a new refund made in the provider's dashboard. False when no order of ours
    // has that payment.
    bool applyRefund(db::Tx& tx, const std::string& provider, const ProviderRefund& refund, const std::string& eventId);

    // A charge (charge.refunded): its refunds list when the payload carries one, then amount_refunded
    // reconciled with the refunds we know, so a dashboard refund whose own object never arrives
    // still counts, once.
    bool applyChargeRefunded(db::Tx& tx, const std::string& provider, const ProviderCharge& charge,
                             const std::string& eventId);

    // A dispute (charge.dispute.created / updated / closed): flags the order; closed as lost enters
    // the ledger (the disputed amount, money out) once.
    bool applyDispute(db::Tx& tx, const std::string& provider, const ProviderDispute& dispute, const std::string& eventId);

private:
    void settleReturn(db::Tx& tx, const Refund& refund, bool wasOut, bool out, const std::string& status,
                      const std::optional<std::string>& refundId, const std::optional<std::string>& eventId, const Actor& actor);
    // Returns the refunded items to stock (docs/billing.md, "Refunds"): exactly `lines`, or, with
    // none, what of the order has not gone back yet.
    void restock(db::Tx& tx, const std::string& orderId, const std::vector<RefundLine>& lines);
    std::optional<std::string> orderOfPayment(db::Tx& tx, const std::string& provider, const ProviderPaymentRef& payment);

    mail::Outbox& outbox_;
    InvoiceRepository& invoices_;
    std::string publicUrl_;
    CheckoutRepository checkouts_;
    LedgerRepository ledger_;
    OrderRepository orders_;
};

// Stripe's refund statuses that mean money has left (or is leaving) us.
bool refundMovesMoney(const std::string& status);

} // namespace storefront::billing

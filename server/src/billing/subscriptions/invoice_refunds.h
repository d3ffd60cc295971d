#pragma once
// What a refund of a subscription payment does to the books (docs/billing.md, "Subscription
// refunds"), whoever started it (staff through POST /api/v1/admin/subscriptions/{id}/refunds, or
// someone in the provider's dashboard): the same rules as an order's refund. The money enters the
// ledger when the refund first reaches pending or succeeded (once, by its entry key), and leaves
// it again only if the refund then fails; the paid invoice gets a credit note (cumulative GST), a
// failed refund's credit note a debit note; the customer is mailed once.
#include "billing/books/invoice_repository.h"
#include "billing/books/ledger_repository.h"
#include "billing/orders/refund.h"
#include "billing/provider/provider_money.h"
#include "billing/orders/subscription_repository.h"
#include "billing/subscriptions/payment_repository.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <optional>
#include <string>

namespace storefront::billing {

class SubscriptionRefundBook {
public:
    SubscriptionRefundBook(mail::Outbox& outbox, InvoiceRepository& invoices, std::string publicUrl)
        : outbox_(outbox), invoices_(invoices), publicUrl_(std::move(publicUrl)) {}

    // Moves the refund to the provider's status, with each money effect once.
    void settle(db::Tx& tx, const SubscriptionRefund& refund, const SubscriptionPayment& payment, const std::string& status,
                const std::optional<std::string>& providerRefundId, const std::optional<std::string>& eventId);

    // The provider's news of a refund: matched to its row by the provider's id, else by our
    // metadata refund_id; otherwise a new refund made in the provider's dashboard of the paid
    // invoice whose payment it names. False when no subscription payment of ours is that payment.
    bool applyProviderRefund(db::Tx& tx, const std::string& provider, const ProviderRefund& refund, const std::string& eventId);

private:
    mail::Outbox& outbox_;
    InvoiceRepository& invoices_;
    std::string publicUrl_;
    SubscriptionPaymentRepository payments_;
    SubscriptionRepository subscriptions_;
    LedgerRepository ledger_;
};

} // namespace storefront::billing

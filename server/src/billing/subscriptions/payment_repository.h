#pragma once
// SQL for the paid invoices of subscriptions and their refunds (migration 0025; docs/billing.md,
// "Subscription refunds"). Every write runs in the transaction of what caused it.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct SubscriptionPayment {
    std::string id, subscriptionId, provider, providerInvoiceId, currency, paidAt;
    std::optional<std::string> providerPaymentId;
    std::int64_t amount = 0, refundedAmount = 0;
};

struct SubscriptionRefund {
    std::string id, paymentId, currency, status, source, createdAt;
    std::int64_t amount = 0;
    std::optional<std::string> reason, providerRefundId, clientKey;
};

struct NewSubscriptionRefund {
    std::string paymentId, currency, status, source;
    std::int64_t amount = 0;
    std::optional<std::string> reason, providerRefundId, clientKey, actorId, actorEmail;
};

class SubscriptionPaymentRepository {
public:
    // Records a paid invoice once (provider, invoice id); the payment id is kept when first known.
    void recordPaid(db::Tx& tx, const SubscriptionPayment& payment);
    // The payment that paid a provider invoice (invoice_payment.paid, when the invoice did not say).
    void setPaymentId(db::Tx& tx, const std::string& provider, const std::string& invoiceId, const std::string& paymentId);
    // The subscription's latest paid invoice, its row held for the caller's transaction.
    std::optional<SubscriptionPayment> latest(db::Tx& tx, const std::string& subscriptionId);
    std::optional<SubscriptionPayment> byProviderPayment(db::Tx& tx, const std::string& provider, const std::string& paymentId);
    std::optional<SubscriptionPayment> find(db::Tx& tx, const std::string& id);
    // What the refunds that count (requested, pending, succeeded) take from the payment.
    std::int64_t counted(db::Tx& tx, const std::string& paymentId);
    void addRefunded(db::Tx& tx, const std::string& paymentId, std::int64_t delta);

    std::string insertRefund(db::Tx& tx, const NewSubscriptionRefund& refund);
    std::optional<SubscriptionRefund> refund(db::Tx& tx, const std::string& id);
    std::optional<SubscriptionRefund> refundByClientKey(db::Tx& tx, const std::string& paymentId, const std::string& key);
    std::optional<SubscriptionRefund> refundByProviderId(db::Tx& tx, const std::string& providerRefundId);
    void setRefundStatus(db::Tx& tx, const std::string& id, const std::string& status, const std::optional<std::string>& providerRefundId);
};

} // namespace storefront::billing

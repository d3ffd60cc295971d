#pragma once
// A refund of an order as the order's pages show it (the refunds table; billing/books writes it).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct Refund {
    std::string id, orderId, currency, status, source, provider, createdAt;
    std::int64_t amount = 0;
    bool restock = false;
    std::optional<std::string> reason, providerRefundId, clientKey, actorEmail;
    // It returns this late payment (an already_paid one), not the order's money: no credit note,
    // and the order's refunded amount and status stay (migration 0029).
    std::optional<std::string> latePaymentId;
};

// What a payment provider tells of money going back, read from its JSON by the provider's readers
// (billing/provider/stripe_json.h) and applied by the books (billing/books/refund_book.h), so the
// books never parse a provider's JSON. The payment it is of: the provider's payment id, and our
// order id when the provider echoes our metadata.
struct ProviderPaymentRef {
    std::optional<std::string> paymentId, orderId;
};
struct ProviderRefund {
    std::string id;     // re_...
    std::int64_t amount = 0;
    std::string currency; // upper case
    std::string status;   // ours: pending | succeeded | failed | canceled
    std::optional<std::string> ourRefundId; // metadata[refund_id]: a refund we made
    std::optional<std::string> reason;
    ProviderPaymentRef payment;
};
struct ProviderCharge {
    ProviderPaymentRef payment;
    std::optional<std::int64_t> amountRefunded;
    std::vector<ProviderRefund> refunds; // the charge's refunds list, when the payload carries one
};
struct ProviderDispute {
    std::string id, currency, status;
    std::int64_t amount = 0;
    std::optional<std::string> reason;
    ProviderPaymentRef payment;
};

} // namespace storefront::billing

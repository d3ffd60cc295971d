#pragma once
// What a payment provider tells of money: its refunds, charges and disputes, read from its JSON by
// the provider's readers (billing/provider/stripe_json.h) and applied by the books
// (billing/books/refund_book.h) and the subscriptions' refunds, so neither parses a provider's JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

// The payment it is of: the provider's payment id, and our
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

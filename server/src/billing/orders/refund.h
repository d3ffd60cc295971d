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

} // namespace storefront::billing

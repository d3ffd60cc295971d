#pragma once
// A refund of an order as the order's pages show it (the refunds table; billing/books writes it).
#include <cstdint>
#include <optional>
#include <string>

namespace storefront::billing {

struct Refund {
    std::string id, orderId, currency, status, source, provider, createdAt;
    std::int64_t amount = 0;
    bool restock = false;
    std::optional<std::string> reason, providerRefundId, clientKey, actorEmail;
};

} // namespace storefront::billing

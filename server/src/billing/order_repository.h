#pragma once
// SQL for orders and their lines.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct NewOrder {
    std::optional<std::string> userId; // none for a guest order (a payment link)
    std::string status;                // pending, or paid for a guest order
    std::int64_t totalAmount = 0;
    std::string currency;
    std::optional<std::string> customerEmail;
    std::optional<std::string> providerCheckoutId; // "<provider>:<session id>" of a guest order
};

struct NewOrderItem {
    std::optional<std::string> productId;
    std::optional<std::string> planId;
    std::string productName;
    std::int64_t quantity = 1;
    std::int64_t unitAmount = 0;
};

// An order with its lines, as the confirmation mail and the dashboard show it.
struct OrderLine {
    std::string productName;
    std::int64_t quantity = 0;
    std::int64_t unitAmount = 0;
};
struct OrderSummary {
    std::string id, orderNumber, status, currency, createdAt;
    std::int64_t totalAmount = 0;
    std::optional<std::string> customerEmail;
    std::vector<OrderLine> lines;
};

class OrderRepository {
public:
    // Inserts the order under a fresh order number (retrying the rare clash); returns its id, or
    // nullopt when a guest order for the same provider checkout exists already.
    std::optional<std::string> insert(db::Tx& tx, const NewOrder& order);
    void insertItem(db::Tx& tx, const std::string& orderId, const NewOrderItem& item);
    // pending or cancelled -> paid (money was taken); false when it was neither.
    bool markPaid(db::Tx& tx, const std::string& orderId);
    // pending -> cancelled; false when it was not pending.
    bool cancelPending(db::Tx& tx, const std::string& orderId);
    std::optional<OrderSummary> find(db::Tx& tx, const std::string& orderId);
    // The user's orders, newest first, without checkouts that were never paid.
    std::vector<OrderSummary> forUser(Poco::Data::Session& s, const std::string& userId);
};

} // namespace storefront::billing

#pragma once
// SQL for payment customers: the provider's customer id per user and provider.
#include "db/database.h"

#include <optional>
#include <string>

namespace storefront::billing {

class PaymentCustomerRepository {
public:
    explicit PaymentCustomerRepository(db::Database& db) : db_(db) {}

    std::optional<std::string> find(const std::string& userId, const std::string& provider);
    // Stores the customer unless one is stored already (a concurrent first checkout).
    void insert(const std::string& userId, const std::string& provider, const std::string& customerId);
    // The user a provider's customer belongs to.
    std::optional<std::string> userOf(db::Tx& tx, const std::string& provider, const std::string& customerId);

private:
    db::Database& db_;
};

} // namespace storefront::billing

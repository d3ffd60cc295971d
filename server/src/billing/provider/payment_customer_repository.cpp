#include "billing/provider/payment_customer_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kFindCustomer = "SELECT provider_customer_id FROM payment_customers WHERE user_id = ? AND provider = ?";
constexpr const char* kInsertCustomer = "INSERT INTO payment_customers (user_id, provider, provider_customer_id, created_at) "
                                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, provider) DO NOTHING";
constexpr const char* kUserOf =
    "SELECT CAST(user_id AS TEXT) FROM payment_customers WHERE provider = ? AND provider_customer_id = ?";

} // namespace

std::optional<std::string> PaymentCustomerRepository::find(const std::string& userId, const std::string& provider) {
    auto s = db_.session();
    return db::query(s, kFindCustomer).bind(userId, provider).text();
}

void PaymentCustomerRepository::insert(const std::string& userId, const std::string& provider, const std::string& customerId) {
    db_.write([&](db::Tx& tx) { tx.query(kInsertCustomer).bind(userId, provider, customerId, tx.clock().nowTimestamp()).run(); });
}

std::optional<std::string> PaymentCustomerRepository::userOf(db::Tx& tx, const std::string& provider, const std::string& customerId) {
    return tx.query(kUserOf).bind(provider, customerId).text();
}

} // namespace storefront::billing

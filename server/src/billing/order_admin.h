#pragma once
// The staff's side of orders and subscriptions (docs/billing.md, "Staff decisions and late
// payments"): the lists, one order with its items, history and late payments, and a status change.
// A status change is one transaction with its history row and audit entry. Cancelling gives the
// reservation back exactly once (the checkout's guarded stock_state) and expires an open checkout:
// in our rows at once, at the provider after the commit (Stripe: its expire call; the local provider
// keeps its state in our rows).
#include "audit/audit.h"
#include "billing/checkout_repository.h"
#include "billing/order_repository.h"
#include "billing/payment_provider.h"
#include "billing/subscription_repository.h"
#include "db/database.h"

#include <optional>
#include <string>

namespace storefront::billing {

bool isOrderStatus(const std::string& status);

class OrderAdmin {
public:
    OrderAdmin(db::Database& db, PaymentProvider& provider) : db_(db), provider_(provider), checkouts_(db) {}

    db::Page<AdminOrder> orders(const AdminOrderFilter& filter, const db::PageQuery& page);
    std::optional<AdminOrderDetail> order(const std::string& id);
    db::Page<AdminSubscription> subscriptions(const std::optional<std::string>& status, const std::optional<std::string>& search,
                                              const db::PageQuery& page);

    // Sets the order's status (one of isOrderStatus). 404 order_not_found; 409 insufficient_stock
    // when reinstating a cancelled order whose stock has gone meanwhile. The same status again
    // changes nothing. Returns the order as it now is.
    AdminOrderDetail changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                  const std::optional<std::string>& note = std::nullopt);

private:
    db::Database& db_;
    PaymentProvider& provider_;
    CheckoutRepository checkouts_;
    OrderRepository orders_;
    SubscriptionRepository subscriptions_;
};

nlohmann::json toJson(const AdminOrder& order);
nlohmann::json toJson(const AdminOrderDetail& detail);
nlohmann::json toJson(const AdminSubscription& subscription);

} // namespace storefront::billing

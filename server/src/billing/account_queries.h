#pragma once
// What a signed-in customer reads about their own billing: the dashboard (subscriptions, the
// active-subscription result, orders), one checkout's progress, and validate-subscription.
// Every query is filtered by the caller's user id. A seat of an active enterprise account's
// licence grants its product like a subscription does (subscription_source enterprise_licence).
#include "billing/orders/checkout_repository.h"
#include "billing/orders/order_repository.h"
#include "billing/orders/subscription_repository.h"
#include "catalog/product_repository.h"
#include "db/database.h"
#include "db/list.h"
#include "enterprise/licence_repository.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::billing {

class AccountQueries {
public:
    // `graceDays`: STOREFRONT_PAST_DUE_GRACE_DAYS, how long a past-due subscription keeps access.
    AccountQueries(db::Database& db, catalog::ProductRepository& products, int graceDays)
        : db_(db), products_(products), graceDays_(graceDays), checkouts_(db) {}

    // The dashboard's orders: the newest this many, with orders_total; GET /api/v1/account/orders
    // pages through them all.
    static constexpr int kDashboardOrders = 20;

    // GET /api/v1/account/dashboard (docs/billing.md).
    nlohmann::json dashboard(const std::string& userId);
    // GET /api/v1/account/orders?page=&page_size= : the user's orders, newest first, a page at a
    // time, each in its answer's JSON shape.
    db::Page<nlohmann::json> orders(const std::string& userId, const db::PageQuery& page);
    // One of the user's orders in the same shape (the answer of POST /api/v1/account/orders/{id}/cancel);
    // nullopt when it is not theirs.
    std::optional<nlohmann::json> order(const std::string& userId, const std::string& orderId);
    // GET /api/v1/account/checkouts/{id}; nullopt when it is not the user's.
    std::optional<nlohmann::json> checkout(const std::string& userId, const std::string& checkoutId);
    // One of the user's subscriptions as the dashboard lists it (the answer of the subscription
    // actions); nullopt when it is not theirs.
    std::optional<nlohmann::json> subscription(const std::string& userId, const std::string& subscriptionId);
    // POST /functions/v1/validate-subscription; nullopt when no active product has that slug.
    std::optional<nlohmann::json> validate(const std::string& userId, const std::string& productSlug);

private:
    db::Database& db_;
    catalog::ProductRepository& products_;
    int graceDays_;
    CheckoutRepository checkouts_;
    OrderRepository orders_;
    SubscriptionRepository subscriptions_;
    enterprise::LicenceRepository licences_; // enterprise seats grant products too
};

} // namespace storefront::billing

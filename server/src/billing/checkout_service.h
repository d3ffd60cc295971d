#pragma once
// Checkout: starting a hosted checkout (prices and stock from our database, stock reserved with the
// pending order), abandoning one, billing-portal links, and the expiry of unpaid checkouts.
// What the buyer then does reaches us as provider events (event_processor.h).
#include "billing/orders/checkout_repository.h"
#include "billing/provider/payment_customer_repository.h"
#include "billing/orders/order_repository.h"
#include "billing/orders/subscription_repository.h"
#include "billing/provider/payment_provider.h"
#include "catalog/product_repository.h"
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct CheckoutSettings {
    std::string publicUrl;         // no trailing slash
    int expirySeconds = 1800;      // unpaid checkouts give their stock back after this
    int providerGraceSeconds = 0;  // how long after expiry the job waits for the provider's own event
    std::vector<std::string> shippingCountries = {"NZ", "AU"}; // where physical products ship
};

struct CheckoutInput {
    std::string productSlug;
    std::optional<std::string> priceId;    // subscription products: a plan of that product
    std::optional<int> quantity;           // physical products
    std::optional<std::string> returnPath; // a path on this site, already checked
};

struct Buyer {
    std::string userId;
    std::string email;
};

struct CheckoutStarted {
    std::string sessionId; // the provider's
    std::string url;
    std::string checkoutId; // ours
};

class CheckoutService {
public:
    CheckoutService(db::Database& db, catalog::ProductRepository& products, PaymentProvider& provider,
                    CheckoutSettings settings)
        : db_(db), products_(products), provider_(provider), settings_(std::move(settings)), customers_(db), checkouts_(db) {}

    // Throws http::ApiError: 404 product_not_found, 422 validation_failed, 409 insufficient_stock /
    // already_subscribed / not_for_sale, 502 payment_provider_error.
    CheckoutStarted start(const Buyer& buyer, const CheckoutInput& input);

    // Abandons the buyer's open checkout (404 for anyone else's, 409 checkout_closed once paid).
    // Returns the checkout's status afterwards.
    std::string cancel(const std::string& userId, const std::string& checkoutId);

    // Whether the provider knows the user as a customer (a payment_customers row): the dashboard's
    // "Manage billing".
    bool hasBillingAccount(const std::string& userId) { return customers_.find(userId, provider_.name()).has_value(); }
    // The provider's billing portal for the user (404 no_billing_account before any checkout).
    std::string portal(const std::string& userId, const std::string& returnPath);

    // The job: expires checkouts past their time (and the provider's grace). Returns how many.
    int expireDue();

    // Closing an account, inside its transaction (which holds the users row): every checkout of
    // the user still creating or open is expired in our rows, its stock given back and its order
    // cancelled as the customer's decision, so a payment that still arrives is a late payment for
    // staff to refund. Returns the provider sessions to expire once committed (expireAtProvider).
    std::vector<std::string> abandonAllOpen(db::Tx& tx, const std::string& userId);
    // Expires these sessions at the provider; a failure is logged (the orders stay cancelled).
    void expireAtProvider(const std::vector<std::string>& sessionIds);

private:
    // What is being bought, from our catalogue: the priced line, mode and plan.
    struct Purchase {
        catalog::Product product;
        CheckoutLine line;
        std::string mode; // payment | subscription
        std::optional<std::string> planId;
        int quantity = 1;
        bool tracked = false; // stock is reserved for it
        int trialDays = 0;    // the plan's trial (reserve keeps it only when the buyer had none)
    };
    Purchase priced(const CheckoutInput& input);
    std::string customerFor(const Buyer& buyer);
    // One transaction: the pending order and its item, the checkout row, the stock (last). A trial plan's
    // checkout holds the buyer's row exclusively and decides there whether the trial is still the
    // buyer's to take (none had, none in progress): two checkouts at once start one trial, the
    // other is priced in full (both `purchase` and `request` then say no trial).
    void reserve(const Buyer& buyer, Purchase& purchase, CheckoutRequest& request);
    // Gives back the stock and cancels the order of a checkout the provider never opened.
    void releaseUnopened(const std::string& checkoutId);

    db::Database& db_;
    catalog::ProductRepository& products_;
    PaymentProvider& provider_;
    CheckoutSettings settings_;
    PaymentCustomerRepository customers_;
    CheckoutRepository checkouts_;
    OrderRepository orders_;
    SubscriptionRepository subscriptions_;
};

} // namespace storefront::billing

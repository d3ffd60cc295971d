#pragma once
// The billing area: the payment provider (local test provider or Stripe, from billing::Settings),
// the event inbox, checkout, the customer's billing reads, their routes and the checkout-expiry job.
#include "billing/checkout_service.h"
#include "billing/event_processor.h"
#include "billing/order_admin.h"
#include "billing/account_queries.h"
#include "billing/provider/local_provider.h"
#include "billing/settings.h"
#include "billing/subscriptions/subscription_service.h"
#include "catalog/product_repository.h"
#include "common/module.h"
#include "mail/outbox.h"

#include <memory>

namespace storefront::billing {

class Module : public storefront::Module {
public:
    // `production`: the local test provider, and so its /pay/test pages, must not exist
    // (STOREFRONT_ENV; the server refuses to start with it, this is a second lock).
    Module(db::Database& db, const Settings& settings, std::string publicUrl, std::string siteName,
           catalog::ProductRepository& products, mail::Outbox& outbox, bool production);
    std::string_view name() const override { return "billing"; }
    void routes(http::Router& router) override;
    void jobs(Schedule& schedule) override;
    void demo(db::Database& db) override;

    // The tax invoices, built here once: the event inbox issues invoices with it, the refund path
    // credit and debit notes, the register and GST report read it.
    InvoiceRepository& invoices() { return invoices_; }
    // The payment provider (closing an account cancels its subscriptions through it).
    PaymentProvider& provider() { return *provider_; }
    // The customer's checkouts (closing an account abandons the open ones).
    CheckoutService& checkout() { return *checkout_; }

private:
    db::Database& db_;
    const Settings& settings_;
    std::string siteName_;
    InvoiceRepository invoices_;
    EventProcessor events_;
    std::unique_ptr<PaymentProvider> provider_;
    LocalProvider* local_ = nullptr; // the provider, when it is the local test provider (development only)
    std::unique_ptr<CheckoutService> checkout_;
    AccountQueries account_;
    std::unique_ptr<OrderAdmin> orderAdmin_;
    std::unique_ptr<SubscriptionService> subscriptions_;
};

} // namespace storefront::billing

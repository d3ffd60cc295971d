#pragma once
// The payments settings: provider (local or Stripe), keys, checkout expiry.
// app/config.cpp reads them (docs/configuration.md lists each with its default).
#include "billing/books/invoice_settings.h"

#include <string>
#include <vector>

namespace storefront::billing {

// Checkout and payments (docs/configuration.md, "Payments").
struct Settings {
    std::string provider = "local";              // local | stripe
    std::string stripeSecretKey;                 // sk_live_... / sk_test_...
    std::string stripeWebhookSecret;             // whsec_...; several, comma-separated, while rotating
    std::string stripeApiBase = "https://api.stripe.com";
    int stripeTimeoutSeconds = 20;
    // STOREFRONT_ALLOW_TEST_PAYMENTS: a production server may take Stripe test-mode payments
    // (sk_test_/rk_test_ keys); every page then shows a TEST PAYMENTS ribbon and every mail's
    // subject starts with "TEST PAYMENTS".
    bool allowTestPayments = false;
    int checkoutExpirySeconds = 1800;            // an unpaid checkout gives its stock back after this
    int pastDueGraceDays = 14;                   // a failed renewal keeps access this long (0 to 60)
    InvoiceSettings invoices;
    // Where physical products ship (ISO 3166-1 alpha-2): Stripe's allowed_countries and the local page's choice.
    std::vector<std::string> shippingCountries = {"NZ", "AU"};
};

} // namespace storefront::billing

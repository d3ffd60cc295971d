#pragma once
// The payments settings: provider (local or Stripe), keys, checkout expiry.
// app/config.cpp reads them (docs/configuration.md lists each with its default).
#include <string>
#include <vector>

namespace storefront::billing {

// Tax invoices (docs/configuration.md, "Tax invoices"; docs/billing.md, "Tax invoices").
struct InvoiceSettings {
    std::string legalName;  // STOREFRONT_COMPANY_LEGAL_NAME
    std::string address;    // STOREFRONT_COMPANY_ADDRESS
    std::string gstNumber;  // STOREFRONT_GST_NUMBER, check digit verified, as "49-091-850"
    std::string prefix = "INV-";
    std::vector<std::string> zeroRatedCurrencies = {"AUD", "USD"}; // exports: GST 0.00
};

// Checkout and payments (docs/configuration.md, "Payments").
struct Settings {
    std::string provider = "local";              // local | stripe
    std::string stripeSecretKey;                 // sk_live_... / sk_test_...
    std::string stripeWebhookSecret;             // whsec_...; several, comma-separated, while rotating
    std::string stripeApiBase = "https://api.stripe.com";
    int stripeTimeoutSeconds = 20;
    int checkoutExpirySeconds = 1800;            // an unpaid checkout gives its stock back after this
    InvoiceSettings invoices;
    // Where physical products ship (ISO 3166-1 alpha-2): Stripe's allowed_countries and the local page's choice.
    std::vector<std::string> shippingCountries = {"NZ", "AU"};
};

} // namespace storefront::billing

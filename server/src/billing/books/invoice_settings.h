#pragma once
// What a tax invoice says about the seller; part of the payments settings (billing/settings.h).
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

} // namespace storefront::billing

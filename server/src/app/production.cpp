#include "app/production.h"

namespace storefront::app {

std::vector<std::string> productionProblems(const Config& config) {
    std::vector<std::string> problems;
    if (!config.production()) return problems;
    if (config.payments.provider == "local")
        problems.push_back("STOREFRONT_PAYMENT_PROVIDER is local (its TEST MODE pages mark orders paid without taking a payment): "
                           "set it to stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
    if (config.mail.transport != "smtp")
        problems.push_back("STOREFRONT_MAIL_TRANSPORT is " + config.mail.transport +
                           " (mail is recorded but never delivered, so sign-up confirmations and password resets never arrive): "
                           "set it to smtp with SMTP_HOST (and SMTP_PORT, SMTP_SECURITY, SMTP_USER, SMTP_PASSWORD as your mail "
                           "relay needs) and STOREFRONT_MAIL_FROM");
    if (!config.httpsPublicUrl())
        problems.push_back("STOREFRONT_PUBLIC_URL is " + config.publicUrl +
                           " (not https: passwords, tokens and emailed links would travel unencrypted): set it to the https:// "
                           "address customers use, e.g. https://shop.example.nz");
    if (config.demoData)
        problems.push_back("STOREFRONT_DEMO_DATA is true (it writes demo users, orders and workers into the database): set it to false");
    if (!config.auth.adminMfaRequired)
        problems.push_back("STOREFRONT_AUTH_ADMIN_MFA_REQUIRED is false (staff admins could work without two-factor): set it to true");
    const auto& invoices = config.payments.invoices;
    if (invoices.legalName.empty())
        problems.push_back("STOREFRONT_COMPANY_LEGAL_NAME is not set (a GST tax invoice must name the supplier): set it to the "
                           "company's legal name, e.g. \"Example Software Limited\"");
    if (invoices.gstNumber.empty())
        problems.push_back("STOREFRONT_GST_NUMBER is not set (a GST tax invoice must show the supplier's GST number): set it "
                           "to the company's GST number, e.g. 123-456-789");
    return problems;
}

std::string describeProductionProblems(const std::vector<std::string>& problems) {
    if (problems.empty()) return {};
    std::string text = "STOREFRONT_ENV is production (the default) and " + std::to_string(problems.size()) +
                       (problems.size() == 1 ? " setting is" : " settings are") + " not fit for production:\n";
    for (const auto& problem : problems) text += "  - " + problem + "\n";
    text += "Change them (docs/configuration.md, \"Production mode\"), or set STOREFRONT_ENV=development to try the server "
            "on your own machine.";
    return text;
}

} // namespace storefront::app

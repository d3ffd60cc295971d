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
    const auto& payments = config.payments;
    if (payments.provider == "stripe" &&
        (payments.stripeSecretKey.starts_with("sk_test_") || payments.stripeSecretKey.starts_with("rk_test_")) &&
        !payments.allowTestPayments)
        problems.push_back("STRIPE_SECRET_KEY is a test-mode key (" + payments.stripeSecretKey.substr(0, 8) +
                           "...: checkouts succeed with test cards and no money is taken): set it to the live key (sk_live_ or "
                           "rk_live_), or set STOREFRONT_ALLOW_TEST_PAYMENTS=true for a test deployment (every page then shows a "
                           "TEST PAYMENTS ribbon and every mail subject starts with TEST PAYMENTS)");
    if (payments.provider == "stripe" && !payments.stripeApiBase.starts_with("https://"))
        problems.push_back("STRIPE_API_BASE is " + payments.stripeApiBase +
                           " (not https: the secret key and payment data would travel unencrypted): set it to "
                           "https://api.stripe.com, or leave it unset");
    if (config.mail.transport == "smtp" && config.mail.smtpSecurity == "none" && !isLoopbackHost(config.mail.smtpHost))
        problems.push_back("SMTP_SECURITY is none with SMTP_HOST " + config.mail.smtpHost +
                           " (the relay password and every mail, sign-in links included, would cross the network "
                           "unencrypted): set it to starttls or tls (none only for a relay on this machine)");
    if (!config.auth.confirmEmail)
        problems.push_back("STOREFRONT_AUTH_CONFIRM_EMAIL is false (anyone could sign up with someone else's address and "
                           "receive their orders' mail): set it to true");
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

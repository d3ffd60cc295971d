#pragma once
// The mail settings: transport (outbox or SMTP), sender, sales address, retries.
// app/config.cpp reads them (docs/configuration.md lists each with its default).
#include "mail/html_part.h"

#include <string>

namespace storefront::mail {

struct Settings {
    std::string transport = "outbox"; // outbox | smtp
    std::string from = "Signalcraft <no-reply@signalcraft.co.nz>";
    std::string salesAddress = "sales@signalcraft.co.nz";
    std::string smtpHost;
    int smtpPort = 587;
    std::string smtpUser;
    std::string smtpPassword;
    std::string smtpSecurity = "starttls"; // starttls | tls | none
    int smtpTimeoutSeconds = 20;          // connect, TLS handshake and each reply
    int retryIntervalSeconds = 60;
    int maxAttempts = 10;
    // The outbox transport prints each mail's text in the log (STOREFRONT_MAIL_PRINT, development
    // only: the links in account mail sign people in).
    bool print = false;
    // Put before every queued mail's subject ("TEST PAYMENTS: " when STOREFRONT_ALLOW_TEST_PAYMENTS).
    std::string subjectPrefix;
    Branding brand; // the HTML part's logo and footer: the site and company settings
};

} // namespace storefront::mail

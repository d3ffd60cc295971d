#pragma once
// The mail settings: transport (outbox or SMTP), sender, sales address, retries.
// app/config.cpp reads them (docs/configuration.md lists each with its default).
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
};

} // namespace storefront::mail

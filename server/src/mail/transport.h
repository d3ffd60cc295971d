#pragma once
// How a stored mail leaves the building. Two implementations: the outbox transport (development
// and the default: the mail stays in mail_outbox, a line is logged) and SMTP.
#include "mail/html_part.h"
#include "mail/mail_message.h"
#include "mail/settings.h"

#include <memory>
#include <string>


namespace storefront::mail {

class Transport {
public:
    virtual ~Transport() = default;
    virtual std::string name() const = 0;
    // Delivers one message or throws (the outbox then retries later). `key` names the message
    // the same on every attempt (the outbox row's id): its Message-ID.
    virtual void send(const MailMessage& message, const std::string& from, const std::string& key) = 0;
};

// Keeps mail in the outbox table for admins and logs one line per message; with `print`
// (STOREFRONT_MAIL_PRINT, development only) the text part too, so a local run shows the links.
class OutboxOnlyTransport : public Transport {
public:
    explicit OutboxOnlyTransport(bool print = false) : print_(print) {}
    std::string name() const override { return "outbox"; }
    void send(const MailMessage& message, const std::string& from, const std::string& key) override;

private:
    bool print_;
};

// SMTP submission with STARTTLS (port 587), implicit TLS (465) or plain (local relays only).
class SmtpTransport : public Transport {
public:
    // `timeoutSeconds` bounds each step: connecting, the TLS handshake, every reply.
    SmtpTransport(std::string host, int port, std::string user, std::string password, std::string security,
                  int timeoutSeconds = 20, Branding brand = {});
    std::string name() const override { return "smtp"; }
    void send(const MailMessage& message, const std::string& from, const std::string& key) override;

private:
    std::string host_;
    int port_;
    std::string user_;
    std::string password_;
    std::string security_;
    int timeoutSeconds_;
    Branding brand_;
};

std::unique_ptr<Transport> makeTransport(const mail::Settings& config);

} // namespace storefront::mail

#pragma once
// How a stored mail leaves the building. Two implementations: the outbox transport (development
// and the default: the mail stays in mail_outbox, a line is logged) and SMTP.
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

// Keeps mail in the outbox table for admins and logs one line per message (never the body).
class OutboxOnlyTransport : public Transport {
public:
    std::string name() const override { return "outbox"; }
    void send(const MailMessage& message, const std::string& from, const std::string& key) override;
};

// SMTP submission with STARTTLS (port 587), implicit TLS (465) or plain (local relays only).
class SmtpTransport : public Transport {
public:
    // `timeoutSeconds` bounds each step: connecting, the TLS handshake, every reply.
    SmtpTransport(std::string host, int port, std::string user, std::string password, std::string security,
                  int timeoutSeconds = 20);
    std::string name() const override { return "smtp"; }
    void send(const MailMessage& message, const std::string& from, const std::string& key) override;

private:
    std::string host_;
    int port_;
    std::string user_;
    std::string password_;
    std::string security_;
    int timeoutSeconds_;
};

std::unique_ptr<Transport> makeTransport(const mail::Settings& config);

} // namespace storefront::mail

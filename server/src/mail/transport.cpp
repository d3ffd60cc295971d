#include "mail/transport.h"

#include "common/tls_socket.h"
#include "mail/settings.h"

#include <Poco/Logger.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/SMTPClientSession.h>
#include <Poco/Net/StringPartSource.h>

#include <stdexcept>

namespace storefront::mail {

namespace {

void build(Poco::Net::MailMessage& m, const MailMessage& message, const std::string& from) {
    // The header check is repeated here so that no caller can smuggle a header in.
    if (!isSafeHeaderValue(message.to) || !isSafeHeaderValue(message.replyTo) ||
        !isSafeHeaderValue(message.subject) || !isSafeHeaderValue(from))
        throw std::invalid_argument("mail header contains control characters");
    m.setSender(from);
    m.addRecipient(Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, message.to));
    m.setSubject(Poco::Net::MailMessage::encodeWord(message.subject, "UTF-8"));
    if (!message.replyTo.empty()) m.set("Reply-To", message.replyTo);
    m.setContentType("text/plain; charset=UTF-8");
    m.setContent(message.text, Poco::Net::MailMessage::ENCODING_QUOTED_PRINTABLE);
}

Poco::Net::Context::Ptr clientContext() {
    // Verify the relay's certificate against the system's trust store.
    return new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                  Poco::Net::Context::VERIFY_RELAXED, 9, true);
}

// An SMTP session whose STARTTLS handshake has the socket's deadline (POCO's own startTLS has none).
class Session : public Poco::Net::SMTPClientSession {
public:
    using Poco::Net::SMTPClientSession::SMTPClientSession;
    void startTls(const std::string& host, Poco::Net::Context::Ptr context) {
        std::string response;
        if (!isPositiveCompletion(sendCommand("STARTTLS", response)))
            throw std::runtime_error("SMTP relay does not offer STARTTLS");
        socket() = common::startTls(socket(), host, context);
    }
};

} // namespace

void OutboxOnlyTransport::send(const MailMessage& message, const std::string&) {
    Poco::Logger::get("mail").information("outbox: %s mail to %s kept in the outbox (subject: %s)", message.kind,
                                          message.to, message.subject);
}

SmtpTransport::SmtpTransport(std::string host, int port, std::string user, std::string password, std::string security,
                             int timeoutSeconds)
    : host_(std::move(host)), port_(port), user_(std::move(user)), password_(std::move(password)),
      security_(std::move(security)), timeoutSeconds_(timeoutSeconds) {}

void SmtpTransport::send(const MailMessage& message, const std::string& from) {
    Poco::Net::MailMessage mail;
    build(mail, message, from);
    // Every step (connect, TLS handshake, each reply) has the deadline: common/tls_socket.h.
    const Poco::Timespan timeout(timeoutSeconds_, 0);
    auto socket = common::connect(host_, port_, timeout, security_ == "tls" ? clientContext() : Poco::Net::Context::Ptr());
    Session session(socket);
    session.setTimeout(timeout);
    if (security_ == "starttls") {
        session.login(); // EHLO
        session.startTls(host_, clientContext());
    }
    // EHLO, then AUTH LOGIN when credentials are configured (login() with credentials sends EHLO itself).
    if (!user_.empty()) session.login(Poco::Net::SMTPClientSession::AUTH_LOGIN, user_, password_);
    else session.login();
    session.sendMessage(mail);
    session.close();
}

std::unique_ptr<Transport> makeTransport(const mail::Settings& config) {
    if (config.transport == "smtp")
        return std::make_unique<SmtpTransport>(config.smtpHost, config.smtpPort, config.smtpUser,
                                               config.smtpPassword, config.smtpSecurity, config.smtpTimeoutSeconds);
    return std::make_unique<OutboxOnlyTransport>();
}

} // namespace storefront::mail

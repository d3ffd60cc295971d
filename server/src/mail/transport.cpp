#include "mail/transport.h"

#include "mail/settings.h"

#include <Poco/Logger.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/SecureSMTPClientSession.h>
#include <Poco/Net/SecureStreamSocket.h>
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

} // namespace

void OutboxOnlyTransport::send(const MailMessage& message, const std::string&) {
    Poco::Logger::get("mail").information("outbox: %s mail to %s kept in the outbox (subject: %s)", message.kind,
                                          message.to, message.subject);
}

SmtpTransport::SmtpTransport(std::string host, int port, std::string user, std::string password, std::string security)
    : host_(std::move(host)), port_(port), user_(std::move(user)), password_(std::move(password)),
      security_(std::move(security)) {}

void SmtpTransport::send(const MailMessage& message, const std::string& from) {
    Poco::Net::MailMessage mail;
    build(mail, message, from);
    const Poco::Net::SocketAddress address(host_, static_cast<Poco::UInt16>(port_));
    const Poco::Timespan timeout(20, 0);
    // EHLO, then AUTH LOGIN when credentials are configured (login() with credentials sends EHLO itself).
    auto authenticate = [&](Poco::Net::SMTPClientSession& session) {
        if (!user_.empty()) session.login(Poco::Net::SMTPClientSession::AUTH_LOGIN, user_, password_);
        else session.login();
    };
    if (security_ == "tls") {
        Poco::Net::SecureStreamSocket socket(address, host_, clientContext());
        socket.setReceiveTimeout(timeout);
        Poco::Net::SMTPClientSession session(socket);
        authenticate(session);
        session.sendMessage(mail);
        session.close();
    } else if (security_ == "starttls") {
        Poco::Net::SecureSMTPClientSession session(host_, static_cast<Poco::UInt16>(port_));
        session.setTimeout(timeout);
        session.login();
        if (!session.startTLS(clientContext())) throw std::runtime_error("SMTP relay does not offer STARTTLS");
        authenticate(session);
        session.sendMessage(mail);
        session.close();
    } else {
        Poco::Net::SMTPClientSession session(host_, static_cast<Poco::UInt16>(port_));
        session.setTimeout(timeout);
        authenticate(session);
        session.sendMessage(mail);
        session.close();
    }
}

std::unique_ptr<Transport> makeTransport(const mail::Settings& config) {
    if (config.transport == "smtp")
        return std::make_unique<SmtpTransport>(config.smtpHost, config.smtpPort, config.smtpUser,
                                               config.smtpPassword, config.smtpSecurity);
    return std::make_unique<OutboxOnlyTransport>();
}

} // namespace storefront::mail

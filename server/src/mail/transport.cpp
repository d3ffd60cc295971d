#include "mail/transport.h"

#include "common/tls_socket.h"
#include "mail/settings.h"
#include "mail/wire.h"

#include <Poco/Logger.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SMTPClientSession.h>

#include <ctime>
#include <stdexcept>

namespace storefront::mail {

namespace {

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
    // MAIL FROM, RCPT TO, DATA, then the message (already in wire form) dot-stuffed.
    void transfer(const std::string& from, const std::string& to, const std::string& data) {
        std::string response;
        int status = sendCommand("MAIL FROM:<" + from + ">", response);
        if (!isPositiveCompletion(status)) throw Poco::Net::SMTPException("Cannot send message", response, status);
        status = sendCommand("RCPT TO:<" + to + ">", response);
        if (!isPositiveCompletion(status)) throw Poco::Net::SMTPException("Recipient rejected", response, status);
        status = sendCommand("DATA", response);
        if (!isPositiveIntermediate(status)) throw Poco::Net::SMTPException("Cannot send message data", response, status);
        const std::string payload = dotStuff(data);
        for (std::size_t sent = 0; sent < payload.size();) {
            const int n = socket().sendBytes(payload.data() + sent, static_cast<int>(payload.size() - sent));
            if (n <= 0) throw Poco::Net::SMTPException("Connection lost while sending the message");
            sent += static_cast<std::size_t>(n);
        }
        status = socket().receiveStatusMessage(response);
        if (!isPositiveCompletion(status)) throw Poco::Net::SMTPException("The server rejected the message", response, status);
    }
};

} // namespace

void OutboxOnlyTransport::send(const MailMessage& message, const std::string&, const std::string&) {
    Poco::Logger::get("mail").information("outbox: %s mail to %s kept in the outbox (subject: %s)", message.kind,
                                          message.to, message.subject);
    if (print_) Poco::Logger::get("mail").information("outbox: the text of that mail (STOREFRONT_MAIL_PRINT):\n%s", message.text);
}

SmtpTransport::SmtpTransport(std::string host, int port, std::string user, std::string password, std::string security,
                             int timeoutSeconds, Branding brand)
    : host_(std::move(host)), port_(port), user_(std::move(user)), password_(std::move(password)),
      security_(std::move(security)), timeoutSeconds_(timeoutSeconds), brand_(std::move(brand)) {}

void SmtpTransport::send(const MailMessage& message, const std::string& from, const std::string& key) {
    // Composed first: a message that cannot be written (a header with control characters, an
    // invalid address) fails before any connection is made.
    const Mailbox sender = parseMailbox(from);
    const Mailbox recipient = parseMailbox(message.to);
    const std::string data = composeMessage(message, from, std::time(nullptr), messageIdFor(key, domainOf(sender.address)), brand_);
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
    session.transfer(sender.address, recipient.address, data);
    session.close();
}

std::unique_ptr<Transport> makeTransport(const mail::Settings& config) {
    if (config.transport == "smtp")
        return std::make_unique<SmtpTransport>(config.smtpHost, config.smtpPort, config.smtpUser,
                                               config.smtpPassword, config.smtpSecurity, config.smtpTimeoutSeconds, config.brand);
    return std::make_unique<OutboxOnlyTransport>(config.print);
}

} // namespace storefront::mail

#pragma once
// Outgoing connections with a deadline on every step, TLS handshake included. POCO 1.11 has no
// handshake timeout: a peer that accepts the connection and never answers the handshake holds
// the caller for as long as the receive timeout allows, and then the handshake returns as if it
// had finished (the host name is checked only if a certificate had arrived). These helpers run
// the handshake under the socket's timeouts and treat "no certificate" as "not finished".
// Used by the Stripe adapter (billing) and the SMTP transport (mail).
#include <Poco/Net/Context.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Timespan.h>

#include <string>

namespace storefront::common {

// A TCP connection to host:port made within `timeout`, with send and receive timeouts of
// `timeout` and Nagle off. Throws Poco::Exception (e.g. TimeoutException, ConnectionRefusedException).
Poco::Net::StreamSocket connectTcp(const std::string& host, int port, Poco::Timespan timeout);

// TLS over the connected `tcp` (implicit TLS, or after STARTTLS), the handshake bounded by the
// socket's timeouts and the certificate verified against `host`. Throws
// Poco::TimeoutException("TLS handshake did not finish in time") when it did not finish.
Poco::Net::SecureStreamSocket startTls(const Poco::Net::StreamSocket& tcp, const std::string& host,
                                       Poco::Net::Context::Ptr context);

// connectTcp, then startTls when `context` is set.
Poco::Net::StreamSocket connect(const std::string& host, int port, Poco::Timespan timeout, Poco::Net::Context::Ptr context);

} // namespace storefront::common

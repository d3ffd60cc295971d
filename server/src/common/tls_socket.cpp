#include "common/tls_socket.h"

#include <Poco/Exception.h>
#include <Poco/Net/SocketAddress.h>

namespace storefront::common {

Poco::Net::StreamSocket connectTcp(const std::string& host, int port, Poco::Timespan timeout) {
    Poco::Net::StreamSocket tcp;
    tcp.connect(Poco::Net::SocketAddress(host, static_cast<Poco::UInt16>(port)), timeout);
    tcp.setReceiveTimeout(timeout);
    tcp.setSendTimeout(timeout);
    tcp.setNoDelay(true);
    return tcp;
}

Poco::Net::SecureStreamSocket startTls(const Poco::Net::StreamSocket& tcp, const std::string& host,
                                       Poco::Net::Context::Ptr context) {
    auto tls = Poco::Net::SecureStreamSocket::attach(tcp, host, context);
    // POCO 1.11 returns from a handshake that ran out of time as if it had finished, and checks
    // the host name only if a certificate had arrived by then. No certificate: not finished.
    if (!tls.havePeerCertificate()) throw Poco::TimeoutException("TLS handshake did not finish in time");
    return tls;
}

Poco::Net::StreamSocket connect(const std::string& host, int port, Poco::Timespan timeout, Poco::Net::Context::Ptr context) {
    auto tcp = connectTcp(host, port, timeout);
    if (!context) return tcp;
    return startTls(tcp, host, context);
}

} // namespace storefront::common

#include "http/client_connection.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/Socket.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace storefront::http {

namespace {

// HTTPSession::buffered() is protected; a pointer to member named through a derived class
// reaches it on any session.
struct SessionBuffer : Poco::Net::HTTPSession {
    static int bufferedOf(const Poco::Net::HTTPSession& session) { return (session.*(&SessionBuffer::buffered))(); }
};

ConnectionSocketImpl* takeOver(const Poco::Net::StreamSocket& accepted) {
    const int fd = ::fcntl(accepted.impl()->sockfd(), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) throw Poco::Net::NetException("could not take over the connection", std::strerror(errno));
    try {
        return new ConnectionSocketImpl(fd, accepted.peerAddress(), accepted.address());
    } catch (...) {
        ::close(fd);
        throw;
    }
}

} // namespace

int sessionBuffered(const Poco::Net::HTTPSession& session) { return SessionBuffer::bufferedOf(session); }

ConnectionSocketImpl::ConnectionSocketImpl(int fd, Poco::Net::SocketAddress peer, Poco::Net::SocketAddress local)
    : Poco::Net::StreamSocketImpl(fd), peer_(std::move(peer)), local_(std::move(local)) {}

int ConnectionSocketImpl::readReady(std::size_t atMost) {
    if (!hasReadAhead()) {
        readAhead_.clear();
        readPos_ = 0;
    }
    const auto had = readAhead_.size();
    readAhead_.resize(had + atMost);
    ssize_t n;
    do n = ::recv(sockfd(), readAhead_.data() + had, atMost, MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    const int error = errno;
    readAhead_.resize(had + static_cast<std::size_t>(n > 0 ? n : 0));
    if (n < 0) {
        if (error == EAGAIN || error == EWOULDBLOCK) return -1;
        throw Poco::Net::NetException("reading from the client failed", std::strerror(error));
    }
    return static_cast<int>(n);
}

int ConnectionSocketImpl::receiveBytes(void* buffer, int length, int flags) {
    if (hasReadAhead() && length > 0) {
        const auto n = std::min(static_cast<std::size_t>(length), readAhead_.size() - readPos_);
        std::memcpy(buffer, readAhead_.data() + readPos_, n);
        readPos_ += n;
        if (readPos_ == readAhead_.size()) {
            readAhead_.clear();
            readPos_ = 0;
        }
        return static_cast<int>(n);
    }
    if (!loopMode_) return Poco::Net::StreamSocketImpl::receiveBytes(buffer, length, flags);
    // The event loop never waits for a read: it answers only requests it has whole.
    const auto n = ::recv(sockfd(), buffer, static_cast<std::size_t>(length), flags | MSG_DONTWAIT);
    if (n >= 0) return static_cast<int>(n);
    throw Poco::TimeoutException("no more of the request has arrived");
}

bool ConnectionSocketImpl::poll(const Poco::Timespan& timeout, int mode) {
    if ((mode & Poco::Net::Socket::SELECT_READ) != 0 && hasReadAhead()) return true;
    return Poco::Net::StreamSocketImpl::poll(timeout, mode);
}

int ConnectionSocketImpl::available() {
    return Poco::Net::StreamSocketImpl::available() + static_cast<int>(readAhead_.size() - readPos_);
}

int ConnectionSocketImpl::sendBytes(const void* buffer, int length, int flags) {
    if (!loopMode_) return Poco::Net::StreamSocketImpl::sendBytes(buffer, length, flags);
    const auto* bytes = static_cast<const char*>(buffer);
    if (!pending_.empty()) { // after what is already waiting
        pending_.append(bytes, static_cast<std::size_t>(length));
        return length;
    }
    ssize_t n;
    do n = ::send(sockfd(), bytes, static_cast<std::size_t>(length), flags | MSG_DONTWAIT | MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK) throw Poco::Net::ConnectionResetException(std::strerror(errno));
        n = 0;
    }
    if (n < length) pending_.append(bytes + n, static_cast<std::size_t>(length - n));
    return length;
}

ClientConnection::ClientConnection(const Poco::Net::StreamSocket& accepted, const Poco::Net::HTTPServerParams::Ptr& params)
    : impl(takeOver(accepted)), socket(impl), session(socket, params) {}

int ClientConnection::fd() const { return impl->sockfd(); }

namespace {
std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}
} // namespace

BufferedRequest::BufferedRequest(std::string_view head, ClientConnection& connection, Poco::Net::HTTPServerResponse& response,
                                 const Poco::Net::HTTPServerParams& params)
    : connection_(connection), response_(response), params_(params) {
    const auto lineEnd = head.find("\r\n");
    const auto line = head.substr(0, lineEnd);
    const auto first = line.find(' ');
    const auto second = line.find(' ', first + 1);
    setMethod(std::string(line.substr(0, first)));
    setURI(std::string(line.substr(first + 1, second - first - 1)));
    setVersion(std::string(line.substr(second + 1)));
    for (auto at = lineEnd + 2; at < head.size();) {
        const auto next = head.find("\r\n", at);
        if (next == at) break; // the empty line ending the head
        const auto header = head.substr(at, next - at);
        const auto colon = header.find(':');
        add(std::string(header.substr(0, colon)), std::string(trimmed(header.substr(colon + 1))));
        at = next + 2;
    }
}

std::istream& BufferedRequest::stream() {
    if (!empty_) empty_ = std::make_unique<std::istringstream>();
    return *empty_;
}

Poco::Net::StreamSocket* requestSocket(Poco::Net::HTTPServerRequest& request) {
    if (auto* buffered = dynamic_cast<BufferedRequest*>(&request)) return &buffered->socket();
    if (auto* impl = dynamic_cast<Poco::Net::HTTPServerRequestImpl*>(&request)) return &impl->socket();
    return nullptr;
}

} // namespace storefront::http

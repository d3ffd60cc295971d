#pragma once
// One client's keep-alive connection as the server keeps it between requests: its socket and its
// POCO session (which holds the keep-alive state and any bytes read ahead). It moves between a
// thread (the blocking request loop, http/connection.cpp) and an event loop (http/event_loop.h),
// which waits for its next request without holding a thread and answers the cheap ones itself.
//
// The socket is our own POCO socket implementation over the connection's descriptor:
//  - bytes the event loop has already read are handed to POCO's reads first (readAhead);
//  - in loop mode a send never waits: what the kernel does not take at once is kept (pending) and
//    a thread sends it later, under the send timeout, so a slow reader cannot stall the loop;
//  - the peer and local addresses are read once, not on every request.
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/StreamSocketImpl.h>

#include <chrono>
#include <cstddef>
#include <istream>
#include <list>
#include <memory>
#include <string>
#include <string_view>

namespace storefront::http {

class ConnectionSocketImpl : public Poco::Net::StreamSocketImpl {
public:
    ConnectionSocketImpl(int fd, Poco::Net::SocketAddress peer, Poco::Net::SocketAddress local);

    // Reads the bytes that are ready (never waits) and appends them to readAhead. Returns the
    // count; 0 when the client closed; -1 when nothing was ready; throws on a socket error.
    int readReady(std::size_t atMost);
    const std::string& readAhead() const { return readAhead_; }
    bool hasReadAhead() const { return readPos_ < readAhead_.size(); }
    void discardReadAhead() {
        readAhead_.clear();
        readPos_ = 0;
    }
    const Poco::Net::SocketAddress& peer() const { return peer_; }
    const Poco::Net::SocketAddress& local() const { return local_; }

    void setLoopMode(bool loop) { loopMode_ = loop; }
    bool hasPending() const { return !pending_.empty(); }
    std::string takePending() { return std::move(pending_); }

    int receiveBytes(void* buffer, int length, int flags = 0) override;
    bool poll(const Poco::Timespan& timeout, int mode) override;
    int available() override;
    int sendBytes(const void* buffer, int length, int flags = 0) override;
    Poco::Net::SocketAddress peerAddress() override { return peer_; }
    Poco::Net::SocketAddress address() override { return local_; }

protected:
    ~ConnectionSocketImpl() override = default;

private:
    Poco::Net::SocketAddress peer_;
    Poco::Net::SocketAddress local_;
    std::string readAhead_;
    std::size_t readPos_ = 0;
    bool loopMode_ = false;
    std::string pending_;
};

struct ClientConnection {
    // Takes over the accepted socket: a duplicate of its descriptor, so the accepted socket's own
    // close (by POCO, when its connection object ends) leaves this one open.
    ClientConnection(const Poco::Net::StreamSocket& accepted, const Poco::Net::HTTPServerParams::Ptr& params);
    ClientConnection(const ClientConnection&) = delete;
    ClientConnection& operator=(const ClientConnection&) = delete;

    int fd() const;

    ConnectionSocketImpl* impl; // owned by `socket`
    Poco::Net::StreamSocket socket;
    Poco::Net::HTTPServerSession session;

    // The event loop's bookkeeping while the connection waits there.
    std::list<std::unique_ptr<ClientConnection>>::iterator slot;
    std::chrono::steady_clock::time_point idleSince;
};

// Bytes the session has read but POCO has not parsed yet (a pipelined request).
int sessionBuffered(const Poco::Net::HTTPSession& session);

// A request the event loop has whole in memory (a head loopRequestHead accepted: no body), parsed
// straight from those bytes instead of through POCO's header streams.
class BufferedRequest : public Poco::Net::HTTPServerRequest {
public:
    BufferedRequest(std::string_view head, ClientConnection& connection, Poco::Net::HTTPServerResponse& response,
                    const Poco::Net::HTTPServerParams& params);

    std::istream& stream() override; // empty: such a request has no body
    const Poco::Net::SocketAddress& clientAddress() const override { return connection_.impl->peer(); }
    const Poco::Net::SocketAddress& serverAddress() const override { return connection_.impl->local(); }
    const Poco::Net::HTTPServerParams& serverParams() const override { return params_; }
    Poco::Net::HTTPServerResponse& response() const override { return response_; }
    bool secure() const override { return false; }
    Poco::Net::StreamSocket& socket() { return connection_.socket; }

private:
    ClientConnection& connection_;
    Poco::Net::HTTPServerResponse& response_;
    const Poco::Net::HTTPServerParams& params_;
    std::unique_ptr<std::istream> empty_;
};

// The socket a request arrived on (POCO's own request or a BufferedRequest); null for anything else.
Poco::Net::StreamSocket* requestSocket(Poco::Net::HTTPServerRequest& request);

} // namespace storefront::http

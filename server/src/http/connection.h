#pragma once
// The server's own TCP layer under the request handler: the accept loop's overload answer and the
// per-connection request loop. It replaces POCO's HTTPServer/HTTPServerConnection for two answers
// POCO gives without our headers (see docs/reliability.md, "The HTTP edge"):
//  - a request POCO cannot read (malformed request line, a header line over 8 KiB, more than 100
//    header fields, a URL over 16 KiB) is answered with our JSON error (400 `bad_request`, or
//    431 `request_header_too_large` for the header limits) and the security headers, then closed;
//  - a connection arriving while `maxQueued` connections already wait for a thread is answered
//    503 `server_busy` with Retry-After by the accept thread itself (one non-blocking send of a
//    small answer, never a wait), then closed; POCO's dispatcher would close it without a word.
//  - slow clients: a request's line and headers must arrive whole within the header timeout however
//    slowly they trickle in (a watchdog cuts the connection and answers 408), at most a share of
//    the threads may be reading headers at once (past it the one reading longest is cut), and
//    every send has a timeout (a client that stops reading is dropped and its thread freed).
// Everything else is what HTTPServerConnection::run does in POCO 1.11, including the
// serverStopped event (graceful stop waits for the request in flight, abort shuts the socket).
#include "http/api_error.h"
#include "http/response.h"

#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/ThreadPool.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace storefront::http {

// An ApiError as a response: the JSON body ({"code","message",... ,"request_id"}), Retry-After and
// Allow when set, no caching. The one error shape of the server.
void writeErrorResponse(Response& response, const ApiError& error, std::string_view requestId);

// The complete bytes of an error answer that closes the connection: status line, Date,
// `Connection: close`, X-Request-Id, the security headers, the JSON body.
std::string closingErrorAnswer(const ApiError& error, bool httpsPublicUrl, std::string_view requestId);

// The status and code for a request POCO could not read, from the MessageException's text.
ApiError unreadableRequestError(const std::string& pocoMessage);

// What the accept thread answers (then closes) when the queue of connections waiting for a thread
// is full.
ApiError serverBusyError();

// What a streamed answer (an export) gets while ServerOptions::maxStreams are already running:
// 429 too_many_exports with Retry-After.
ApiError tooManyStreamsError();

// A request whose line and headers did not arrive whole within the header timeout: 408.
ApiError headerTimeoutError();

// The connection limits of a listener (http/server.h, ServerOptions).
struct ListenerLimits {
    bool httpsPublicUrl = false;
    int headerTimeoutSeconds = 10; // a request's line and headers, whole
    int sendTimeoutSeconds = 30;   // each send to the client
    int maxReading = 256;          // connections reading headers at once; past it the longest is cut
    int eventLoops = 2;            // threads where keep-alive connections wait (http/event_loop.h)
    // Whether the event loop may answer a request itself (Router::runsOnLoop); empty: never.
    std::function<bool(std::string_view method, std::string_view path)> runsOnLoop;
};

// A TCPServer running our connections (HTTP/1.1 with keep-alive) through `handlers`.
class HttpListener : public Poco::Net::TCPServer {
public:
    HttpListener(Poco::Net::HTTPRequestHandlerFactory::Ptr handlers, Poco::ThreadPool& pool,
                 const Poco::Net::ServerSocket& socket, Poco::Net::HTTPServerParams::Ptr params, ListenerLimits limits);
    ~HttpListener() override;

    // As HTTPServer::stopAll: stops accepting, then tells every connection to stop, waiting for
    // the requests in flight (abortCurrent false) or shutting their sockets down (true).
    void stopAll(bool abortCurrent);
    // Closes the keep-alive connections waiting for a request (the first step of a stop).
    void closeIdle();
    // Keep-alive connections waiting in the event loops now.
    std::size_t waitingConnections() const;

    // Connections answered 503 by the accept thread since the start.
    std::uint64_t busyRefusals() const;
    // Connections cut while reading a request's headers (too slow, or past the reading share).
    std::uint64_t headerTimeouts() const;

    class ConnectionFactory;

private:
    HttpListener(ConnectionFactory* connections, Poco::ThreadPool& pool, const Poco::Net::ServerSocket& socket,
                 Poco::Net::HTTPServerParams::Ptr params, ListenerLimits limits);

    ConnectionFactory* connections_; // owned by the TCPServer's dispatcher
    class BusyFilter;
    BusyFilter* filter_ = nullptr; // owned by the TCPServer (reference counted)
};

} // namespace storefront::http

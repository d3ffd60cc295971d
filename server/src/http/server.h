#pragma once
// The HTTP server: our HttpListener (POCO TCPServer, http/connection.h) with a generously sized thread pool and short keep-alive, so
// idle browser connections cannot make a new visitor wait (see docs/scaling.md).
#include "common/fair_semaphore.h"
#include "http/router.h"

#include <Poco/Net/ServerSocket.h>
#include <Poco/ThreadPool.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace storefront::http {

struct ServerOptions {
    std::string bindAddress = "127.0.0.1";
    int port = 8080; // 0 picks a free port
    int maxThreads = 1024;     // one per connection whose request is being read or answered on a thread
    int maxQueued = 1024;      // accepted connections waiting for a thread; past it: 503 server_busy
    int keepAliveSeconds = 5;  // idle keep-alive connections are closed after this
    int readTimeoutSeconds = 30; // a request's headers or body stalled this long: the connection is dropped;
                                 // a body must also arrive whole within this (408 request_timeout)
    // A request's line and headers must arrive whole within this (408, then closed), however
    // slowly they trickle in; at most maxReadingShare of the threads may be reading headers at
    // once (past it the connection reading longest is cut), so slow senders (slowloris) hold a
    // bounded share of the threads for a bounded time.
    int headerTimeoutSeconds = 10;
    double maxReadingShare = 0.25;
    // Every send to a client: a client that takes none of an answer for this long is dropped.
    int sendTimeoutSeconds = 30;
    // Streamed answers (the CSV exports) at once; the next is answered 429 too_many_exports.
    int maxStreams = 4;
    int maxKeepAliveRequests = 1000;
    // Threads where keep-alive connections wait for their next request and where the cheap
    // requests (Router::runOnLoop) are answered (http/event_loop.h); 0: one per core.
    int eventLoops = 0;
    std::size_t maxBodyBytes = 1 << 20;
    std::vector<std::string> trustedProxies;
    bool httpsPublicUrl = false;
    // On stop: how long requests in flight may take to finish before their connections are cut.
    int drainSeconds = 10;
};

struct InFlightRequests;
class HttpListener;
class HttpMetrics;
class Exposition;

class Server {
public:
    Server(const Router& router, ServerOptions options);
    ~Server();

    void start();
    // Stops accepting and closes the listening socket (new connections are refused), closes idle
    // keep-alive connections, lets requests in flight finish for up to drainSeconds, then cuts
    // the connections still open and joins the worker threads.
    void stop();
    int port() const;
    // The server's metrics (http/metrics.h) and its busy refusals; nothing before start().
    void writeMetrics(Exposition& out) const;

private:
    const Router& router_;
    ServerOptions options_;
    std::unique_ptr<Poco::ThreadPool> pool_;
    std::unique_ptr<HttpListener> server_;
    Poco::Net::ServerSocket listener_;
    std::unique_ptr<InFlightRequests> inFlight_; // the connections whose request a handler is running
    std::unique_ptr<HttpMetrics> metrics_;
    std::unique_ptr<common::FairSemaphore> streams_; // maxStreams permits
    bool running_ = false;
    int port_ = 0;
};

} // namespace storefront::http

#pragma once
// Where keep-alive connections wait for their next request: a few threads (one per core), each
// with its own epoll set, instead of a thread per connection blocked in poll(2).
//
// A thread per waiting connection costs a sleep and a wake-up (two context switches) for every
// request, and an idle browser connection holds a thread. Here a loop thread wakes for many ready
// connections at once; for each it reads what arrived and asks `onRequest` what to do:
//  - the cheap requests (a whole GET for a route marked Router::runOnLoop: the catalogue, the
//    product pages, the web build) are answered right there, on the loop thread, and the
//    connection goes back to waiting (Next::Park);
//  - anything else (a body, a slow sender, a route that may wait on a database write, a provider
//    or a stream, an answer the client did not take at once) goes to a thread of its own
//    (Next::HandOff: `handOff` takes the connection; the thread parks it again afterwards);
//  - Next::Close ends the connection.
// A connection idle for `idleTimeout` is closed, as the keep-alive timeout did before.
#include "http/client_connection.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace storefront::http {

// What the event loop needs to know of a request before it answers it itself: the request line and
// headers have arrived whole and nothing follows them, it has no body (no Content-Length,
// Transfer-Encoding or Expect), and its target is a plain path (no percent-escapes, no dot
// segments, no control characters). Anything else is read and answered on a thread, by POCO's own
// parsing, with every limit and answer of the thread path. The views point into `bytes`.
struct LoopRequestHead {
    std::string_view method;
    std::string_view path; // without the query
};
std::optional<LoopRequestHead> loopRequestHead(std::string_view bytes);

class EventLoops {
public:
    enum class Next { Park, Close, HandOff };
    using OnRequest = std::function<Next(ClientConnection&)>;
    using HandOff = std::function<void(std::unique_ptr<ClientConnection>)>;

    EventLoops(int threads, std::chrono::milliseconds idleTimeout, OnRequest onRequest, HandOff handOff);
    ~EventLoops();
    EventLoops(const EventLoops&) = delete;
    EventLoops& operator=(const EventLoops&) = delete;

    // From any thread: the connection waits in a loop from now on (closed at once after stop()).
    void park(std::unique_ptr<ClientConnection> connection);
    // Closes every waiting connection and joins the loop threads. Idempotent.
    void stop();

    // Connections waiting now, in every loop.
    std::size_t waiting() const;

private:
    struct Loop;
    void run(Loop& loop);
    void readable(Loop& loop, ClientConnection& connection);
    void drop(Loop& loop, ClientConnection& connection);

    const std::chrono::milliseconds idleTimeout_;
    OnRequest onRequest_;
    HandOff handOff_;
    std::vector<std::unique_ptr<Loop>> loops_;
    std::atomic<unsigned> next_{0};
    std::atomic<bool> stopping_{false};
};

} // namespace storefront::http

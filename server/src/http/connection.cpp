#include "http/connection.h"

#include "common/log_context.h"
#include "http/answer_writer.h"
#include "http/client_connection.h"
#include "http/event_loop.h"
#include "http/read_watch.h"
#include "http/request_id.h"
#include "http/security_headers.h"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/BasicEvent.h>
#include <Poco/Delegate.h>
#include <Poco/Logger.h>
#include <Poco/Mutex.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponseImpl.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/TCPServerConnection.h>
#include <Poco/Net/TCPServerConnectionFactory.h>
#include <Poco/Runnable.h>
#include <Poco/ThreadPool.h>
#include <Poco/Timestamp.h>

#include <sys/socket.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>

namespace storefront::http {

void writeErrorResponse(Response& response, const ApiError& error, std::string_view requestId) {
    auto body = error.body();
    body["request_id"] = requestId;
    response.json(error.status(), body);
    response.errorCode = error.code();
    if (error.retryAfterSeconds) response.set("Retry-After", std::to_string(*error.retryAfterSeconds));
    if (!error.allow.empty()) response.set("Allow", error.allow);
    response.set("Cache-Control", "no-store");
}

std::string closingErrorAnswer(const ApiError& error, bool httpsPublicUrl, std::string_view requestId) {
    Response response;
    writeErrorResponse(response, error, requestId);
    response.set("X-Request-Id", std::string(requestId));
    addSecurityHeaders(response, httpsPublicUrl);
    const auto reason = Poco::Net::HTTPResponse::getReasonForStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
    std::string out;
    out.reserve(1024 + response.body.size());
    out.append("HTTP/1.1 ").append(std::to_string(response.status)).append(1, ' ').append(reason).append("\r\n");
    out.append("Date: ").append(Poco::DateTimeFormatter::format(Poco::Timestamp(), Poco::DateTimeFormat::HTTP_FORMAT)).append("\r\n");
    out.append("Connection: close\r\n");
    for (const auto& [name, value] : response.headers) out.append(name).append(": ").append(value).append("\r\n");
    out.append("Content-Type: ").append(response.contentType).append("\r\n");
    out.append("Content-Length: ").append(std::to_string(response.body.size())).append("\r\n\r\n");
    out.append(response.body);
    return out;
}

ApiError unreadableRequestError(const std::string& pocoMessage) {
    // POCO 1.11's texts (MessageHeader::read): a header value cut at 8 KiB ends in "Field value too
    // long/no CRLF found"; the field limit is 100. Anything else (a malformed request line, a URL
    // over 16 KiB: POCO's "URI invalid or too long" does not say which) is a 400.
    const auto has = [&](const char* text) { return pocoMessage.find(text) != std::string::npos; };
    if (has("Field value too long") || has("Too many header fields"))
        return ApiError(ErrorKind::HeaderFieldsTooLarge, "request_header_too_large",
                        "The request's headers are too large.");
    return ApiError(ErrorKind::BadRequest, "bad_request", "The request could not be read.");
}

ApiError serverBusyError() {
    auto busy = ApiError(ErrorKind::Unavailable, "server_busy", "The server is busy. Please try again.");
    busy.retryAfterSeconds = 1;
    return busy;
}

ApiError tooManyStreamsError() {
    auto busy = ApiError(ErrorKind::RateLimited, "too_many_exports",
                         "Too many downloads are running at once. Please try again in a moment.");
    busy.retryAfterSeconds = 5;
    return busy;
}

ApiError headerTimeoutError() {
    return ApiError(ErrorKind::RequestTimeout, "request_timeout", "The request's headers did not arrive in time.");
}

namespace {

Poco::Logger& connectionLog() {
    static Poco::Logger& logger = Poco::Logger::get("http");
    return logger;
}

// The Date header's text, made once a second per thread rather than for every answer.
const std::string& httpDateNow() {
    thread_local std::time_t second = -1;
    thread_local std::string text;
    const std::time_t now = std::time(nullptr);
    if (now != second) {
        second = now;
        text = Poco::DateTimeFormatter::format(Poco::Timestamp::fromEpochTime(now), Poco::DateTimeFormat::HTTP_FORMAT);
    }
    return text;
}

const std::atomic<bool> kNeverStopped{false};

} // namespace

// Makes the connections and runs their requests; its event tells them the server is stopping (as
// HTTPServer uses the handler factory's serverStopped event, which only POCO's own classes may fire).
class HttpListener::ConnectionFactory : public Poco::Net::TCPServerConnectionFactory {
public:
    ConnectionFactory(Poco::Net::HTTPServerParams::Ptr params, Poco::Net::HTTPRequestHandlerFactory::Ptr handlers,
                      const ListenerLimits& limits);
    ~ConnectionFactory() override {
        loops_.stop();
        handOffs_.joinAll();
    }
    Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& socket) override;

    Poco::BasicEvent<const bool> serverStopped;
    const ReadWatch& readWatch() const { return readWatch_; }
    const ListenerLimits& limits() const { return limits_; }
    const Poco::Net::HTTPServerParams::Ptr& params() const { return params_; }
    // Closes the connections waiting for a request; from now on a connection closes after its answer.
    void closeIdle() { loops_.stop(); }
    void joinHandOffs() { handOffs_.joinAll(); }
    void park(std::unique_ptr<ClientConnection> connection) { loops_.park(std::move(connection)); }
    std::size_t waiting() const { return loops_.waiting(); }

    // One request on `connection`: read it (on a thread, under the header watch), answer it.
    // False when the connection must close.
    bool serveOne(ClientConnection& connection, bool onLoop, const std::atomic<bool>& stopped);

private:
    EventLoops::Next onLoop(ClientConnection& connection);
    void handOff(std::unique_ptr<ClientConnection> connection);
    void answerAndClose(ClientConnection& connection, const ApiError& error, const std::string& why, bool linger,
                        const std::atomic<bool>& stopped);

    Poco::Net::HTTPServerParams::Ptr params_;
    Poco::Net::HTTPRequestHandlerFactory::Ptr handlers_;
    ListenerLimits limits_;
    ReadWatch readWatch_;
    Poco::ThreadPool handOffs_; // threads for the requests the event loops pass on
    EventLoops loops_;          // last: stopped first
};

namespace {

// The request loop of one connection on one thread: POCO 1.11's HTTPServerConnection::run, except
// for the answer to a request it cannot read, and for the wait between requests: once nothing
// more has arrived, the connection goes to the event loops, and the thread is free.
class ConnectionRunner {
public:
    explicit ConnectionRunner(HttpListener::ConnectionFactory& factory) : factory_(factory) {
        factory_.serverStopped += Poco::delegate(this, &ConnectionRunner::onServerStopped);
    }
    ~ConnectionRunner() {
        try {
            factory_.serverStopped -= Poco::delegate(this, &ConnectionRunner::onServerStopped);
        } catch (...) {
        }
    }
    ConnectionRunner(const ConnectionRunner&) = delete;
    ConnectionRunner& operator=(const ConnectionRunner&) = delete;

    void run(std::unique_ptr<ClientConnection> connection) {
        setCurrent(connection.get());
        struct Clear {
            ConnectionRunner& runner;
            ~Clear() { runner.setCurrent(nullptr); }
        } clear{*this};
        auto& impl = *connection->impl;
        impl.setLoopMode(false);
        if (impl.hasPending()) { // the rest of an answer the event loop began, under the send timeout
            const auto pending = impl.takePending();
            try {
                sendAll(connection->socket, pending.data(), pending.size());
            } catch (const Poco::Exception&) {
                return; // the client went away or stopped reading
            }
            if (!connection->session.getKeepAlive()) return;
        }
        // Only an answer's rest to send, nothing more read: straight back to the loop.
        bool park = startedOnLoop_ && !impl.hasReadAhead() && sessionBuffered(connection->session) == 0;
        while (!park && !stopped_ && connection->session.hasMoreRequests()) {
            {
                Poco::FastMutex::ScopedLock lock(mutex_);
                if (stopped_) break;
                if (!factory_.serveOne(*connection, false, stopped_)) return;
            }
            park = !impl.hasReadAhead() && sessionBuffered(connection->session) == 0;
        }
        if (!park || stopped_) return;
        setCurrent(nullptr);
        factory_.park(std::move(connection));
    }

    // A connection the event loop passed on (it has read part of a request, or holds the rest of an answer).
    void resumedFromLoop() { startedOnLoop_ = true; }

private:
    void setCurrent(ClientConnection* connection) {
        std::lock_guard lock(currentMutex_);
        current_ = connection;
    }
    void shutdownCurrent() {
        std::lock_guard lock(currentMutex_);
        if (!current_) return;
        try {
            current_->socket.shutdown();
        } catch (...) {
        }
    }
    void onServerStopped(const bool& abortCurrent) {
        stopped_ = true;
        if (!abortCurrent) Poco::FastMutex::ScopedLock lock(mutex_); // waits for the request in flight
        shutdownCurrent();
    }

    HttpListener::ConnectionFactory& factory_;
    std::atomic<bool> stopped_{false};
    bool startedOnLoop_ = false;
    Poco::FastMutex mutex_; // held while a request runs
    std::mutex currentMutex_;
    ClientConnection* current_ = nullptr;
};

// A new connection, on one of the TCPServer's threads: its first request.
class StorefrontConnection : public Poco::Net::TCPServerConnection {
public:
    StorefrontConnection(const Poco::Net::StreamSocket& socket, HttpListener::ConnectionFactory& factory)
        : Poco::Net::TCPServerConnection(socket), factory_(factory), runner_(factory) {}

    void run() override {
        std::unique_ptr<ClientConnection> connection;
        try {
            // A client that takes none of an answer for this long is dropped (every send: http/answer_writer.h).
            socket().setSendTimeout(Poco::Timespan(factory_.limits().sendTimeoutSeconds, 0));
            connection = std::make_unique<ClientConnection>(socket(), factory_.params());
        } catch (const Poco::Exception&) {
            return; // the client is already gone
        }
        runner_.run(std::move(connection));
    }

private:
    HttpListener::ConnectionFactory& factory_;
    ConnectionRunner runner_;
};

// A connection the event loop passed on, on a thread of the hand-off pool; deletes itself.
class ResumedConnection : public Poco::Runnable {
public:
    ResumedConnection(HttpListener::ConnectionFactory& factory, std::unique_ptr<ClientConnection> connection)
        : runner_(factory), connection_(std::move(connection)) {
        runner_.resumedFromLoop();
    }
    void run() override {
        try {
            runner_.run(std::move(connection_));
        } catch (const std::exception& e) {
            connectionLog().debug("connection ended: %s", std::string(e.what()));
        }
        delete this;
    }
    std::unique_ptr<ClientConnection> takeConnection() { return std::move(connection_); }

private:
    ConnectionRunner runner_;
    std::unique_ptr<ClientConnection> connection_;
};

} // namespace

HttpListener::ConnectionFactory::ConnectionFactory(Poco::Net::HTTPServerParams::Ptr params,
                                                   Poco::Net::HTTPRequestHandlerFactory::Ptr handlers, const ListenerLimits& limits)
    : params_(std::move(params)), handlers_(std::move(handlers)), limits_(limits),
      readWatch_(limits.headerTimeoutSeconds, limits.maxReading),
      handOffs_("handoff", 2, std::max(2, params_->getMaxThreads()), 60, 1024 * 1024),
      loops_(limits.eventLoops, std::chrono::milliseconds(params_->getKeepAliveTimeout().totalMilliseconds()),
             [this](ClientConnection& connection) { return onLoop(connection); },
             [this](std::unique_ptr<ClientConnection> connection) { handOff(std::move(connection)); }) {}

Poco::Net::TCPServerConnection* HttpListener::ConnectionFactory::createConnection(const Poco::Net::StreamSocket& socket) {
    return new StorefrontConnection(socket, *this);
}

bool HttpListener::ConnectionFactory::serveOne(ClientConnection& connection, bool onLoop, const std::atomic<bool>& stopped) {
    auto& session = connection.session;
    bool reading = true; // still reading the request line and headers
    std::optional<ReadWatch::Scope> watch; // on a thread they must arrive whole within the header timeout
    if (!onLoop) watch.emplace(readWatch_, connection.socket);
    const auto cut = [&watch] { return watch && watch->end(); };
    const auto timedOut = [&] {
        answerAndClose(connection, headerTimeoutError(), "request headers too slow (cut by the header timeout or the reading share)",
                       !onLoop, stopped);
        return false;
    };
    try {
        Poco::Net::HTTPServerResponseImpl response(session);
        // On the loop the request is whole in memory (onLoop checked it); on a thread POCO reads it.
        std::optional<BufferedRequest> buffered;
        std::optional<Poco::Net::HTTPServerRequestImpl> read;
        if (onLoop) {
            buffered.emplace(connection.impl->readAhead(), connection, response, *params_);
            connection.impl->discardReadAhead();
        } else {
            read.emplace(response, session, params_);
        }
        Poco::Net::HTTPServerRequest& request = onLoop ? static_cast<Poco::Net::HTTPServerRequest&>(*buffered) : *read;
        reading = false;
        if (cut()) return timedOut(); // cut just as the last header arrived
        response.set("Date", httpDateNow());
        response.setVersion(request.getVersion());
        response.setKeepAlive(params_->getKeepAlive() && request.getKeepAlive() && session.canKeepAlive());
        if (const auto& software = params_->getSoftwareVersion(); !software.empty()) response.set("Server", software);
        std::unique_ptr<Poco::Net::HTTPRequestHandler> handler(handlers_->createRequestHandler(request));
        if (request.getExpectContinue() && response.getStatus() == Poco::Net::HTTPResponse::HTTP_OK) response.sendContinue();
        handler->handleRequest(request, response);
        session.setKeepAlive(params_->getKeepAlive() && response.getKeepAlive() && session.canKeepAlive());
        return session.getKeepAlive();
    } catch (const Poco::Net::NoMessageException&) {
        if (cut()) return timedOut(); // it sent nothing in time
        return false;                 // else the client closed between requests
    } catch (const Poco::Net::MessageException& e) {
        // Only a request POCO failed to read gets an answer here; the handler answers (and catches)
        // everything after that.
        if (reading && cut()) return timedOut();
        if (reading)
            answerAndClose(connection, unreadableRequestError(e.message()), "unreadable request (" + e.message() + ")", !onLoop,
                           stopped);
        return false;
    } catch (const Poco::Exception&) {
        if (reading && cut()) return timedOut(); // the cut read: its socket error is ours
        if (session.networkException()) session.networkException()->rethrow();
        throw;
    }
}

EventLoops::Next HttpListener::ConnectionFactory::onLoop(ClientConnection& connection) {
    const auto head = loopRequestHead(connection.impl->readAhead());
    if (!head || !limits_.runsOnLoop || !limits_.runsOnLoop(head->method, head->path)) return EventLoops::Next::HandOff;
    if (!connection.session.hasMoreRequests()) return EventLoops::Next::Close; // its keep-alive requests are used up
    connection.impl->setLoopMode(true);
    const bool keep = serveOne(connection, true, kNeverStopped);
    if (connection.impl->hasPending()) return EventLoops::Next::HandOff; // a thread sends the rest
    if (!keep) return EventLoops::Next::Close;
    connection.impl->setLoopMode(false);
    if (connection.impl->hasReadAhead() || sessionBuffered(connection.session) > 0) return EventLoops::Next::HandOff;
    return EventLoops::Next::Park;
}

void HttpListener::ConnectionFactory::handOff(std::unique_ptr<ClientConnection> connection) {
    auto* resumed = new ResumedConnection(*this, std::move(connection));
    try {
        handOffs_.start(*resumed);
    } catch (const Poco::NoThreadAvailableException&) {
        // Every thread is taken: the same answer as the accept queue's when it is full.
        auto refused = resumed->takeConnection();
        delete resumed;
        const std::string requestId = newRequestId();
        const std::string answer = closingErrorAnswer(serverBusyError(), limits_.httpsPublicUrl, requestId);
        [[maybe_unused]] const auto sent = ::send(refused->fd(), answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        common::RequestIdScope scope(requestId);
        connectionLog().warning("overload: every thread is taken; answered 503 server_busy to a waiting connection");
    }
}

void HttpListener::ConnectionFactory::answerAndClose(ClientConnection& connection, const ApiError& error, const std::string& why,
                                                     bool linger, const std::atomic<bool>& stopped) {
    connection.session.setKeepAlive(false);
    const std::string requestId = newRequestId();
    common::RequestIdScope scope(requestId);
    connectionLog().information("%s: answered %d %s", why, error.status(), error.code());
    const std::string answer = closingErrorAnswer(error, limits_.httpsPublicUrl, requestId);
    auto& s = connection.socket;
    try {
        sendAll(s, answer.data(), answer.size());
        if (!linger) return; // the event loop never waits; it read the whole request anyway
        // Lingering close: the client may still be sending the rest of its headers. Closing with
        // unread input would reset the connection, and a reset can destroy the answer before
        // the client reads it. So say we are done, then read and discard for a bounded time.
        s.shutdownSend();
        s.setReceiveTimeout(Poco::Timespan(1, 0));
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        char sink[4096];
        std::size_t discarded = 0;
        while (!stopped && discarded < (1U << 20) && std::chrono::steady_clock::now() < until) {
            const int n = s.receiveBytes(sink, sizeof sink);
            if (n <= 0) break;
            discarded += static_cast<std::size_t>(n);
        }
    } catch (const Poco::Exception&) {
        // The client went away or stayed silent: nothing left to do.
    }
}

// Runs on the accept thread before POCO's dispatcher enqueues a connection. Only that thread
// enqueues and the workers only dequeue, so a queue found below the limit here still has room
// when the dispatcher enqueues.
class HttpListener::BusyFilter : public Poco::Net::TCPServerConnectionFilter {
public:
    BusyFilter(const Poco::Net::TCPServer& server, int maxQueued, bool httpsPublicUrl)
        : server_(server), maxQueued_(maxQueued), httpsPublicUrl_(httpsPublicUrl) {}

    bool accept(const Poco::Net::StreamSocket& socket) override {
        if (server_.queuedConnections() < maxQueued_) return true;
        refuse(socket);
        return false;
    }

    std::uint64_t refusals() const { return refusals_.load(); }

private:
    // One non-blocking send of the small answer (an empty send buffer takes it whole; a client
    // whose connection cannot take it gets nothing), FIN, discard what already arrived (so the
    // close does not reset the connection over unread input), and POCO closes the socket.
    void refuse(const Poco::Net::StreamSocket& socket) {
        const int fd = socket.impl()->sockfd();
        const std::string requestId = newRequestId();
        const std::string answer = closingErrorAnswer(serverBusyError(), httpsPublicUrl_, requestId);
        [[maybe_unused]] const auto sent = ::send(fd, answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        ::shutdown(fd, SHUT_WR);
        char sink[4096];
        for (int i = 0; i < 16 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++i) {
        }
        const std::uint64_t total = ++refusals_;
        // At most one line a second, so an overload cannot flood the log.
        const auto now = std::chrono::steady_clock::now();
        if (now - lastLogged_ >= std::chrono::seconds(1)) {
            lastLogged_ = now;
            common::RequestIdScope scope(requestId);
            connectionLog().warning("overload: %d connection(s) waiting for a thread; answered 503 server_busy (%s since start)",
                                    maxQueued_, std::to_string(total));
        }
    }

    const Poco::Net::TCPServer& server_;
    int maxQueued_;
    bool httpsPublicUrl_;
    std::atomic<std::uint64_t> refusals_{0};
    std::chrono::steady_clock::time_point lastLogged_{};
};

HttpListener::HttpListener(Poco::Net::HTTPRequestHandlerFactory::Ptr handlers, Poco::ThreadPool& pool,
                           const Poco::Net::ServerSocket& socket, Poco::Net::HTTPServerParams::Ptr params, ListenerLimits limits)
    : HttpListener(new ConnectionFactory(params, std::move(handlers), limits), pool, socket, params, limits) {}

HttpListener::HttpListener(ConnectionFactory* connections, Poco::ThreadPool& pool, const Poco::Net::ServerSocket& socket,
                           Poco::Net::HTTPServerParams::Ptr params, ListenerLimits limits)
    : Poco::Net::TCPServer(Poco::Net::TCPServerConnectionFactory::Ptr(connections), pool, socket, params),
      connections_(connections) {
    filter_ = new BusyFilter(*this, params->getMaxQueued(), limits.httpsPublicUrl);
    setConnectionFilter(Poco::Net::TCPServerConnectionFilter::Ptr(filter_)); // takes the reference
}

HttpListener::~HttpListener() {
    try {
        stop();
    } catch (...) {
    }
}

void HttpListener::closeIdle() { connections_->closeIdle(); }

void HttpListener::stopAll(bool abortCurrent) {
    stop();
    connections_->closeIdle();
    connections_->serverStopped(this, abortCurrent);
    connections_->joinHandOffs();
}

std::size_t HttpListener::waitingConnections() const { return connections_->waiting(); }

std::uint64_t HttpListener::busyRefusals() const { return filter_->refusals(); }

std::uint64_t HttpListener::headerTimeouts() const { return connections_->readWatch().cuts(); }

} // namespace storefront::http

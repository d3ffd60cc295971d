#include "http/connection.h"

#include "common/log_context.h"
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
#include <Poco/Timestamp.h>

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <memory>

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

// One keep-alive connection: POCO 1.11's HTTPServerConnection::run, except for the answer to a
// request it cannot read.
class StorefrontConnection : public Poco::Net::TCPServerConnection {
public:
    StorefrontConnection(const Poco::Net::StreamSocket& socket, Poco::Net::HTTPServerParams::Ptr params,
                         Poco::Net::HTTPRequestHandlerFactory::Ptr handlers, Poco::BasicEvent<const bool>& serverStopped,
                         const ListenerLimits& limits, ReadWatch& readWatch)
        : Poco::Net::TCPServerConnection(socket), params_(std::move(params)), handlers_(std::move(handlers)),
          serverStopped_(serverStopped), httpsPublicUrl_(limits.httpsPublicUrl), sendTimeoutSeconds_(limits.sendTimeoutSeconds),
          readWatch_(readWatch) {
        serverStopped_ += Poco::delegate(this, &StorefrontConnection::onServerStopped);
    }
    ~StorefrontConnection() override {
        try {
            serverStopped_ -= Poco::delegate(this, &StorefrontConnection::onServerStopped);
        } catch (...) {
        }
    }

    void run() override {
        const std::string& software = params_->getSoftwareVersion();
        // A client that takes none of an answer for this long is dropped (every send: http/answer_writer.h).
        try {
            socket().setSendTimeout(Poco::Timespan(sendTimeoutSeconds_, 0));
        } catch (const Poco::Exception&) {
            return; // the client is already gone
        }
        Poco::Net::HTTPServerSession session(socket(), params_);
        while (!stopped_ && session.hasMoreRequests()) {
            bool reading = true; // still reading the request line and headers
            ReadWatch::Scope watch(readWatch_, socket()); // they must arrive whole within the header timeout
            try {
                Poco::FastMutex::ScopedLock lock(mutex_);
                if (stopped_) break;
                Poco::Net::HTTPServerResponseImpl response(session);
                Poco::Net::HTTPServerRequestImpl request(response, session, params_);
                reading = false;
                if (watch.end()) { // cut just as the last header arrived
                    answerTimeout(session);
                    break;
                }
                response.setDate(Poco::Timestamp());
                response.setVersion(request.getVersion());
                response.setKeepAlive(params_->getKeepAlive() && request.getKeepAlive() && session.canKeepAlive());
                if (!software.empty()) response.set("Server", software);
                std::unique_ptr<Poco::Net::HTTPRequestHandler> handler(handlers_->createRequestHandler(request));
                if (request.getExpectContinue() && response.getStatus() == Poco::Net::HTTPResponse::HTTP_OK)
                    response.sendContinue();
                handler->handleRequest(request, response);
                session.setKeepAlive(params_->getKeepAlive() && response.getKeepAlive() && session.canKeepAlive());
            } catch (const Poco::Net::NoMessageException&) {
                if (watch.end()) answerTimeout(session); // it sent nothing in time
                break; // else the client closed between requests
            } catch (const Poco::Net::MessageException& e) {
                // Only a request POCO failed to read gets an answer here; the handler answers (and
                // catches) everything after that.
                if (reading && watch.end()) answerTimeout(session);
                else if (reading) answerUnreadable(session, e);
                break;
            } catch (const Poco::Exception&) {
                if (reading && watch.end()) { // the cut read: its socket error is ours
                    answerTimeout(session);
                    break;
                }
                if (session.networkException()) session.networkException()->rethrow();
                throw;
            }
        }
    }

private:
    void answerUnreadable(Poco::Net::HTTPServerSession& session, const Poco::Net::MessageException& e) {
        answerAndClose(session, unreadableRequestError(e.message()), "unreadable request (" + e.message() + ")");
    }

    void answerTimeout(Poco::Net::HTTPServerSession& session) {
        answerAndClose(session, headerTimeoutError(), "request headers too slow (cut by the header timeout or the reading share)");
    }

    void answerAndClose(Poco::Net::HTTPServerSession& session, const ApiError& error, const std::string& why) {
        session.setKeepAlive(false);
        const std::string requestId = newRequestId();
        common::RequestIdScope scope(requestId);
        connectionLog().information("%s: answered %d %s", why, error.status(), error.code());
        const std::string answer = closingErrorAnswer(error, httpsPublicUrl_, requestId);
        auto& s = socket();
        try {
            const char* data = answer.data();
            int left = static_cast<int>(answer.size());
            while (left > 0) {
                const int sent = s.sendBytes(data, left);
                if (sent <= 0) return;
                data += sent;
                left -= sent;
            }
            // Lingering close: the client may still be sending the rest of its headers. Closing with
            // unread input would reset the connection, and a reset can destroy the answer before
            // the client reads it. So say we are done, then read and discard for a bounded time.
            s.shutdownSend();
            s.setReceiveTimeout(Poco::Timespan(1, 0));
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
            char sink[4096];
            std::size_t discarded = 0;
            while (!stopped_ && discarded < (1U << 20) && std::chrono::steady_clock::now() < until) {
                const int n = s.receiveBytes(sink, sizeof sink);
                if (n <= 0) break;
                discarded += static_cast<std::size_t>(n);
            }
        } catch (const Poco::Exception&) {
            // The client went away or stayed silent: nothing left to do.
        }
    }

    void onServerStopped(const bool& abortCurrent) {
        stopped_ = true;
        if (abortCurrent) {
            try {
                socket().shutdown();
            } catch (...) {
            }
            return;
        }
        Poco::FastMutex::ScopedLock lock(mutex_); // waits for the request in flight
        try {
            socket().shutdown();
        } catch (...) {
        }
    }

    Poco::Net::HTTPServerParams::Ptr params_;
    Poco::Net::HTTPRequestHandlerFactory::Ptr handlers_;
    Poco::BasicEvent<const bool>& serverStopped_;
    bool httpsPublicUrl_;
    int sendTimeoutSeconds_;
    ReadWatch& readWatch_;
    std::atomic<bool> stopped_{false};
    Poco::FastMutex mutex_;
};

} // namespace

// Makes the connections; its event tells them the server is stopping (as HTTPServer uses the
// handler factory's serverStopped event, which only POCO's own classes may fire).
class HttpListener::ConnectionFactory : public Poco::Net::TCPServerConnectionFactory {
public:
    ConnectionFactory(Poco::Net::HTTPServerParams::Ptr params, Poco::Net::HTTPRequestHandlerFactory::Ptr handlers,
                      const ListenerLimits& limits)
        : params_(std::move(params)), handlers_(std::move(handlers)), limits_(limits),
          readWatch_(limits.headerTimeoutSeconds, limits.maxReading) {}
    Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& socket) override {
        return new StorefrontConnection(socket, params_, handlers_, serverStopped, limits_, readWatch_);
    }

    Poco::BasicEvent<const bool> serverStopped;
    const ReadWatch& readWatch() const { return readWatch_; }

private:
    Poco::Net::HTTPServerParams::Ptr params_;
    Poco::Net::HTTPRequestHandlerFactory::Ptr handlers_;
    ListenerLimits limits_;
    ReadWatch readWatch_;
};

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

void HttpListener::stopAll(bool abortCurrent) {
    stop();
    connections_->serverStopped(this, abortCurrent);
}

std::uint64_t HttpListener::busyRefusals() const { return filter_->refusals(); }

std::uint64_t HttpListener::headerTimeouts() const { return connections_->readWatch().cuts(); }

} // namespace storefront::http

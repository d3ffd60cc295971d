#include "http/server.h"

#include "common/errors.h"
#include "common/log_context.h"
#include "http/answer_writer.h"
#include "http/api_error.h"
#include "http/client_connection.h"
#include "http/connection.h"
#include "http/metrics.h"
#include "http/request_id.h"
#include "http/security_headers.h"

#include <Poco/Data/DataException.h>
#include <Poco/Data/SessionPool.h>
#include <Poco/Logger.h>
#include <Poco/Message.h>
#include <Poco/Timestamp.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Stopwatch.h>


#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <future>
#include <mutex>
#include <thread>

namespace storefront::http {

// The sockets of the requests being handled now, so that stop() can cut the ones still running
// at the drain timeout. (POCO's own abort cannot reach a connection whose graceful stop is already
// waiting for its request: both go through the same per-connection delegate lock.)
struct InFlightRequests {
    // One request's socket, linked in while its handler runs (the node lives in the registration,
    // on the request's stack: no allocation per request).
    struct Node {
        Poco::Net::StreamSocket* socket = nullptr;
        Node* prev = nullptr;
        Node* next = nullptr;
    };
    std::mutex mutex;
    Node head; // a ring: head.next is the first, head.prev the last

    InFlightRequests() { head.prev = head.next = &head; }
    void link(Node& node) {
        std::lock_guard lock(mutex);
        node.prev = head.prev;
        node.next = &head;
        head.prev->next = &node;
        head.prev = &node;
    }
    void unlink(Node& node) {
        std::lock_guard lock(mutex);
        node.prev->next = node.next;
        node.next->prev = node.prev;
    }
    void shutdownAll() {
        std::lock_guard lock(mutex);
        for (auto* node = head.next; node != &head; node = node->next) {
            try {
                node->socket->shutdown();
            } catch (const Poco::Exception&) {
            }
        }
    }
};

namespace {

// Registers a request's socket for as long as its handler runs.
class InFlightRegistration {
public:
    InFlightRegistration(InFlightRequests& registry, Poco::Net::HTTPServerRequest& raw) : registry_(registry) {
        if ((node_.socket = requestSocket(raw))) registry_.link(node_);
    }
    ~InFlightRegistration() {
        if (node_.socket) registry_.unlink(node_);
    }
    InFlightRegistration(const InFlightRegistration&) = delete;
    InFlightRegistration& operator=(const InFlightRegistration&) = delete;

private:
    InFlightRequests& registry_;
    InFlightRequests::Node node_;
};

// GoTrue's API version 2024-01-01: clients read error codes from the body's "code" only when the
// response names that version, and also from the x-sb-error-code header.
void addAuthApiHeaders(Response& response) {
    response.set("X-Supabase-Api-Version", "2024-01-01");
    if (!response.errorCode.empty()) response.set("x-sb-error-code", response.errorCode);
}


// The access log: one information line per request,
//   "<method> <path> <status> <ms>ms bytes=<n> client=<address> user=<id or ->"
// and the formatter adds " request_id=<id>" (or, with STOREFRONT_LOG_FORMAT=json, writes these as
// fields: common/buffered_log_channel.h). The logger is looked up once (Logger::get takes a global
// lock) and the line is built only when it is enabled; the log channel formats and buffers it, a
// writer thread writes it.
Poco::Logger& accessLog() {
    static Poco::Logger& logger = Poco::Logger::get("http");
    return logger;
}

// The path as the access line shows it: control characters (a decoded %0A...) become '?', so a
// request cannot write a line of its own into the text log.
void appendPathForLog(std::string& out, std::string_view path) {
    for (const char c : path) out.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? '?' : c);
}

void logAccess(const common::AccessRecord& record) {
    auto& log = accessLog();
    if (!log.information()) return;
    // "<status> <ms>ms" with one decimal (tenths rounded half up), without printf's floating point.
    const auto micros = record.micros;
    const auto tenths = static_cast<std::uint64_t>(micros < 0 ? 0 : (micros + 50) / 100);
    std::string line;
    line.reserve(record.method.size() + record.path.size() + record.client.size() + record.userId.size() + 64);
    line.append(record.method).append(1, ' ');
    appendPathForLog(line, record.path);
    line.append(1, ' ');
    appendNumber(line, static_cast<std::uint64_t>(record.status < 0 ? 0 : record.status));
    line.append(1, ' ');
    appendNumber(line, tenths / 10);
    line.append(1, '.').append(1, static_cast<char>('0' + tenths % 10)).append("ms bytes=");
    appendNumber(line, record.bytes);
    line.append(" client=").append(record.client).append(" user=");
    if (record.userId.empty()) line.append(1, '-');
    else line.append(record.userId);
    // One Message per thread, reused: constructing one asks the kernel for the process id and
    // copies the thread's name (half a microsecond here, more than the rest of the line).
    thread_local Poco::Message message(log.name(), "", Poco::Message::PRIO_INFORMATION);
    message.setText(std::move(line));
    message.setTime(Poco::Timestamp());
    common::AccessRecordScope fields(record);
    log.log(message);
}

const std::string kNoHeader;

// One handler object per request: dispatch, catch everything at the top, secure, send, log.
class RequestHandler : public Poco::Net::HTTPRequestHandler {
public:
    RequestHandler(const Router& router, const ServerOptions& options, InFlightRequests& inFlight, HttpMetrics& metrics,
                   common::FairSemaphore& streams)
        : router_(router), options_(options), inFlight_(inFlight), metrics_(metrics), streams_(streams) {}

    void handleRequest(Poco::Net::HTTPServerRequest& raw, Poco::Net::HTTPServerResponse& out) override {
        // In flight from here until the answer is sent (a drain past its timeout cuts these); the
        // wait for the next request is the event loops' (http/event_loop.h), idle, not in flight.
        InFlightRegistration registration(inFlight_, raw);
        respond(raw, out);
    }

private:
    bool trustedProxy(const std::string& address) const {
        return std::find(options_.trustedProxies.begin(), options_.trustedProxies.end(), address) != options_.trustedProxies.end();
    }

    void respond(Poco::Net::HTTPServerRequest& raw, Poco::Net::HTTPServerResponse& out) {
        Poco::Stopwatch watch;
        watch.start();
        metrics_.requestStarted();
        struct Finished {
            HttpMetrics& metrics;
            ~Finished() { metrics.requestFinished(); }
        } finished{metrics_};
        // The request id: the proxy's when a trusted proxy sent a plain one, else a new one. Every
        // line logged on this thread until the access line carries it.
        const std::string& incomingId = raw.get("X-Request-Id", kNoHeader);
        const bool fromProxy = !incomingId.empty() && !options_.trustedProxies.empty() &&
                               trustedProxy(raw.clientAddress().host().toString());
        const std::string requestId = requestIdFor(incomingId, fromProxy);
        common::RequestIdScope idScope(requestId);

        Response response;
        common::FairSemaphore::Permit streamPermit; // released once the answer is sent
        std::string path = "?";
        std::string client;
        std::string userId;
        int routeIndex = HttpMetrics::kUnmatched;
        try {
            Request request(raw, options_.maxBodyBytes, options_.trustedProxies,
                            std::chrono::steady_clock::now() + std::chrono::seconds(options_.readTimeoutSeconds));
            // Whatever happens below, the access line and the metrics learn the route and the caller.
            struct Seen {
                const Request& request;
                int& routeIndex;
                std::string& userId;
                ~Seen() {
                    routeIndex = request.routeIndex();
                    if (const auto* caller = request.caller()) userId = caller->userId;
                }
            } seen{request, routeIndex, userId};
            path = request.path();
            client = request.clientAddress();
            try {
                router_.dispatch(request, response);
                // A streamed answer (an export) holds its thread while the client downloads: a few at once.
                if (response.stream && !(streamPermit = streams_.tryTake())) throw tooManyStreamsError();
            } catch (const ApiError& e) {
                response = Response{};
                writeErrorResponse(response, e, requestId);
            }
            // The next request on this connection starts after this body; close when it can't be read.
            if (!request.drainBody()) response.keepAlive = false;
        } catch (const ApiError& e) {
            response = Response{};
            writeErrorResponse(response, e, requestId);
            response.keepAlive = false;
        } catch (const Poco::Data::SessionPoolExhaustedException& e) {
            // Every database session (or, on SQLite, the write lock) stayed busy past the wait: shed
            // load, the client may retry.
            Poco::Logger::get("http").warning("%s %s: database busy: %s", raw.getMethod(), path, e.displayText());
            metrics_.databaseBusy();
            response = Response{};
            writeErrorResponse(response, serverBusyError(), requestId);
        } catch (const common::ConcurrentWriteException& e) {
            // Lost a race with another request's write (PostgreSQL): nothing was written; sent again,
            // the request sees the other's row and gets its ordinary answer.
            Poco::Logger::get("http").warning("%s %s: concurrent write: %s", raw.getMethod(), path, e.displayText());
            response = Response{};
            writeErrorResponse(response, ApiError(ErrorKind::Conflict, "conflict",
                                                  "Another request changed the same data at the same moment. Please try again."),
                               requestId);
        } catch (const Poco::Data::ConnectionFailedException& e) {
            // The database is unreachable (stopped, restarting, network): the request did not
            // complete; the client may retry once it is back. The pool reconnects by itself.
            Poco::Logger::get("http").warning("%s %s: database unavailable: %s", raw.getMethod(), path, e.displayText());
            response = Response{};
            auto down = ApiError(ErrorKind::Unavailable, "database_unavailable",
                                 "The service is temporarily unavailable. Please try again shortly.");
            down.retryAfterSeconds = 2;
            writeErrorResponse(response, down, requestId);
        } catch (const std::exception& e) {
            // Unexpected: log the detail, tell the client nothing about it.
            Poco::Logger::get("http").error("%s %s failed: %s", raw.getMethod(), path, std::string(e.what()));
            response = Response{};
            writeErrorResponse(response, ApiError(ErrorKind::Internal, "internal_error", "Something went wrong on our side."),
                               requestId);
            response.keepAlive = false;
        }
        response.set("X-Request-Id", requestId);
        const std::uint64_t streamedBytes = send(raw, out, response);
        watch.stop();
        // The request could not be parsed: the client address from the socket and the forwarding header.
        if (client.empty())
            client = clientAddressFrom(raw.clientAddress().host().toString(), raw.get("X-Forwarded-For", kNoHeader),
                                       options_.trustedProxies);
        const bool noBody = response.status == 204 || response.status == 304 || raw.getMethod() == "HEAD";
        metrics_.record(routeIndex, raw.getMethod(), response.status, watch.elapsed());
        logAccess({raw.getMethod(), path, response.status, watch.elapsed(), client, userId,
                   noBody ? 0 : response.stream ? streamedBytes : response.body.size()});
    }

    // Sends the answer; returns the bytes of a streamed body sent (0 otherwise).
    std::uint64_t send(Poco::Net::HTTPServerRequest& raw, Poco::Net::HTTPServerResponse& out, Response& response) {
        addSecurityHeaders(response, options_.httpsPublicUrl);
        if (raw.getURI().starts_with("/auth/v1/")) addAuthApiHeaders(response);
        if (auto* socket = requestSocket(raw)) {
            if (response.stream) return sendStreamed(raw, *socket, out, response);
            sendAtOnce(raw, *socket, out, response);
            return 0;
        }
        out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
        for (const auto& [name, value] : response.headers) out.add(name, value);
        if (!response.keepAlive) out.setKeepAlive(false);
        if (response.status == 204 || response.status == 304) {
            out.setContentLength(0);
            out.send();
            return 0;
        }
        out.setContentType(response.contentType);
        if (response.stream) {
            // Not a socket of ours (a test's own server): the body in one piece.
            std::string whole;
            if (raw.getMethod() != "HEAD") response.stream([&whole](std::string_view piece) { whole.append(piece); });
            response.body = std::move(whole);
        }
        out.setContentLength64(static_cast<Poco::Int64>(response.body.size()));
        try {
            auto& stream = out.send();
            if (raw.getMethod() != "HEAD") stream.write(response.body.data(), static_cast<std::streamsize>(response.body.size()));
        } catch (const Poco::Net::NetException&) {
            // The client went away; nothing left to tell it.
        }
        return response.stream ? response.body.size() : 0;
    }

    const Router& router_;
    const ServerOptions& options_;
    InFlightRequests& inFlight_;
    HttpMetrics& metrics_;
    common::FairSemaphore& streams_;
};

class HandlerFactory : public Poco::Net::HTTPRequestHandlerFactory {
public:
    HandlerFactory(const Router& router, const ServerOptions& options, InFlightRequests& inFlight, HttpMetrics& metrics,
                   common::FairSemaphore& streams)
        : router_(router), options_(options), inFlight_(inFlight), metrics_(metrics), streams_(streams) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
        return new RequestHandler(router_, options_, inFlight_, metrics_, streams_);
    }

private:
    const Router& router_;
    const ServerOptions& options_;
    InFlightRequests& inFlight_;
    HttpMetrics& metrics_;
    common::FairSemaphore& streams_;
};

} // namespace

namespace {
// How many connections may be reading a request's headers at once (ServerOptions::maxReadingShare).
int readingLimit(const ServerOptions& options) {
    return std::max(4, static_cast<int>(options.maxThreads * options.maxReadingShare));
}
} // namespace

Server::Server(const Router& router, ServerOptions options)
    : router_(router), options_(std::move(options)), inFlight_(std::make_unique<InFlightRequests>()) {}

Server::~Server() { stop(); }

void Server::start() {
    Poco::Net::SocketAddress address(options_.bindAddress, static_cast<Poco::UInt16>(options_.port));
    listener_ = Poco::Net::ServerSocket(address, /*backlog=*/1024);
    auto* params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(options_.maxThreads);
    params->setMaxQueued(options_.maxQueued);
    params->setKeepAlive(true);
    params->setKeepAliveTimeout(Poco::Timespan(options_.keepAliveSeconds, 0));
    params->setMaxKeepAliveRequests(options_.maxKeepAliveRequests);
    params->setTimeout(Poco::Timespan(options_.readTimeoutSeconds, 0));
    params->setServerName("storefront");
    pool_ = std::make_unique<Poco::ThreadPool>(8, options_.maxThreads + 8, 60, 1024 * 1024);
    // The route table is complete once the server starts: one metrics slot per route pattern.
    std::vector<std::string> patterns;
    for (const auto& route : router_.routes()) patterns.push_back(route.pattern);
    metrics_ = std::make_unique<HttpMetrics>(patterns);
    streams_ = std::make_unique<common::FairSemaphore>(options_.maxStreams);
    ListenerLimits limits{options_.httpsPublicUrl, options_.headerTimeoutSeconds, options_.sendTimeoutSeconds,
                          readingLimit(options_),
                          options_.eventLoops > 0 ? options_.eventLoops : static_cast<int>(std::max(1U, std::thread::hardware_concurrency())),
                          [this](std::string_view method, std::string_view path) { return router_.runsOnLoop(method, path); }};
    server_ = std::make_unique<HttpListener>(new HandlerFactory(router_, options_, *inFlight_, *metrics_, *streams_), *pool_,
                                             listener_, params, std::move(limits));
    server_->start();
    port_ = server_->port();
    running_ = true;
}

void Server::stop() {
    if (!running_) return;
    running_ = false;
    auto& log = Poco::Logger::get("http");
    // Stop accepting, then close the listening socket: from here a new connection is refused
    // (instead of waiting in the kernel's backlog until the process exits).
    server_->stop();
    try {
        listener_.close();
    } catch (const Poco::Exception&) {
    }
    // Idle keep-alive connections close at once.
    server_->closeIdle();
    // Idle keep-alive connections close at once; each connection with a request in flight closes
    // after its response (POCO waits for it, connection by connection, hence the thread).
    const int inFlight = server_->currentConnections();
    auto graceful = std::async(std::launch::async, [this] { server_->stopAll(false); });
    if (graceful.wait_for(std::chrono::seconds(options_.drainSeconds)) != std::future_status::ready) {
        log.warning("shutdown: requests still in flight after the %d s drain timeout; closing their connections",
                    options_.drainSeconds);
        // Repeatedly: a connection POCO has not told to stop yet may start another request. (A client
        // still sending its request headers holds its connection until the 30 s receive timeout;
        // main() ends the process 5 s after the drain timeout regardless.)
        do inFlight_->shutdownAll();
        while (graceful.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready);
    }
    pool_->joinAll();
    if (inFlight > 0) log.information("shutdown: %d connection(s) were open when the server stopped accepting", inFlight);
}

int Server::port() const { return port_; }

void Server::writeMetrics(Exposition& out) const {
    if (!metrics_) return;
    metrics_->write(out);
    out.family("storefront_http_busy_refusals_total", "counter",
               "Requests refused because the server was busy: 503 server_busy when every thread was taken (accept_queue) or the "
               "database pool or write lock stayed busy (database).");
    out.sample("storefront_http_busy_refusals_total", {{"reason", "accept_queue"}},
               static_cast<double>(server_ ? server_->busyRefusals() : 0));
    out.sample("storefront_http_busy_refusals_total", {{"reason", "database"}}, static_cast<double>(metrics_->databaseBusyCount()));
}

} // namespace storefront::http

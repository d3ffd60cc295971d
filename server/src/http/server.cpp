#include "http/server.h"

#include "http/api_error.h"
#include "http/security_headers.h"

#include <Poco/Data/DataException.h>
#include <Poco/Data/SessionPool.h>
#include <Poco/Logger.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Stopwatch.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <mutex>
#include <set>
#include <thread>

namespace storefront::http {

// The sockets of the requests being handled now, so that stop() can cut the ones still running
// at the drain timeout. (POCO's own abort cannot reach a connection whose graceful stop is already
// waiting for its request: both go through the same per-connection delegate lock.)
struct InFlightRequests {
    std::mutex mutex;
    std::set<Poco::Net::StreamSocket*> sockets;

    void shutdownAll() {
        std::lock_guard lock(mutex);
        for (auto* socket : sockets) {
            try {
                socket->shutdown();
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
        if (auto* impl = dynamic_cast<Poco::Net::HTTPServerRequestImpl*>(&raw)) {
            socket_ = &impl->socket();
            std::lock_guard lock(registry_.mutex);
            registry_.sockets.insert(socket_);
        }
    }
    ~InFlightRegistration() {
        if (!socket_) return;
        std::lock_guard lock(registry_.mutex);
        registry_.sockets.erase(socket_);
    }
    InFlightRegistration(const InFlightRegistration&) = delete;
    InFlightRegistration& operator=(const InFlightRegistration&) = delete;

private:
    InFlightRequests& registry_;
    Poco::Net::StreamSocket* socket_ = nullptr;
};

void writeError(Response& response, const ApiError& error) {
    response.json(error.status(), error.body());
    response.errorCode = error.code();
    if (error.retryAfterSeconds) response.set("Retry-After", std::to_string(*error.retryAfterSeconds));
    if (!error.allow.empty()) response.set("Allow", error.allow);
    response.set("Cache-Control", "no-store");
}

// GoTrue's API version 2024-01-01: clients read error codes from the body's "code" only when the
// response names that version, and also from the x-sb-error-code header.
void addAuthApiHeaders(Response& response) {
    response.set("X-Supabase-Api-Version", "2024-01-01");
    if (!response.errorCode.empty()) response.set("x-sb-error-code", response.errorCode);
}

// One handler object per request: dispatch, catch everything at the top, secure, send, log.
class RequestHandler : public Poco::Net::HTTPRequestHandler {
public:
    RequestHandler(const Router& router, const ServerOptions& options, InFlightRequests& inFlight)
        : router_(router), options_(options), inFlight_(inFlight) {}

    void handleRequest(Poco::Net::HTTPServerRequest& raw, Poco::Net::HTTPServerResponse& out) override {
        InFlightRegistration registration(inFlight_, raw);
        Poco::Stopwatch watch;
        watch.start();
        Response response;
        std::string path = "?";
        try {
            Request request(raw, options_.maxBodyBytes, options_.trustedProxies);
            path = request.path();
            try {
                router_.dispatch(request, response);
            } catch (const ApiError& e) {
                response = Response{};
                writeError(response, e);
            }
            // The next request on this connection starts after this body; close when it can't be read.
            if (!request.drainBody()) response.keepAlive = false;
        } catch (const ApiError& e) {
            response = Response{};
            writeError(response, e);
            response.keepAlive = false;
        } catch (const Poco::Data::SessionPoolExhaustedException& e) {
            // Every database session (or, on SQLite, the write lock) stayed busy past the wait: shed
            // load, the client may retry.
            Poco::Logger::get("http").warning("%s %s: database busy: %s", raw.getMethod(), path, e.displayText());
            response = Response{};
            auto busy = ApiError(ErrorKind::Unavailable, "server_busy", "The server is busy. Please try again.");
            busy.retryAfterSeconds = 1;
            writeError(response, busy);
        } catch (const Poco::Data::ConnectionFailedException& e) {
            // The database is unreachable (stopped, restarting, network): the request did not
            // complete; the client may retry once it is back. The pool reconnects by itself.
            Poco::Logger::get("http").warning("%s %s: database unavailable: %s", raw.getMethod(), path, e.displayText());
            response = Response{};
            auto down = ApiError(ErrorKind::Unavailable, "database_unavailable",
                                 "The service is temporarily unavailable. Please try again shortly.");
            down.retryAfterSeconds = 2;
            writeError(response, down);
        } catch (const std::exception& e) {
            // Unexpected: log the detail, tell the client nothing about it.
            Poco::Logger::get("http").error("%s %s failed: %s", raw.getMethod(), path, std::string(e.what()));
            response = Response{};
            writeError(response, ApiError(ErrorKind::Internal, "internal_error", "Something went wrong on our side."));
            response.keepAlive = false;
        }
        send(raw, out, response);
        watch.stop();
        Poco::Logger::get("http").information("%s %s %d %.1fms", raw.getMethod(), path, response.status,
                                              static_cast<double>(watch.elapsed()) / 1000.0);
    }

private:
    void send(Poco::Net::HTTPServerRequest& raw, Poco::Net::HTTPServerResponse& out, Response& response) {
        addSecurityHeaders(response, options_.httpsPublicUrl);
        if (raw.getURI().starts_with("/auth/v1/")) addAuthApiHeaders(response);
        out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
        for (const auto& [name, value] : response.headers) out.add(name, value);
        if (!response.keepAlive) out.setKeepAlive(false);
        if (response.status == 204 || response.status == 304) {
            out.setContentLength(0);
            out.send();
            return;
        }
        out.setContentType(response.contentType);
        out.setContentLength64(static_cast<Poco::Int64>(response.body.size()));
        try {
            auto& stream = out.send();
            if (raw.getMethod() != "HEAD") stream.write(response.body.data(), static_cast<std::streamsize>(response.body.size()));
        } catch (const Poco::Net::NetException&) {
            // The client went away; nothing left to tell it.
        }
    }

    const Router& router_;
    const ServerOptions& options_;
    InFlightRequests& inFlight_;
};

class HandlerFactory : public Poco::Net::HTTPRequestHandlerFactory {
public:
    HandlerFactory(const Router& router, const ServerOptions& options, InFlightRequests& inFlight)
        : router_(router), options_(options), inFlight_(inFlight) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
        return new RequestHandler(router_, options_, inFlight_);
    }

private:
    const Router& router_;
    const ServerOptions& options_;
    InFlightRequests& inFlight_;
};

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
    server_ = std::make_unique<Poco::Net::HTTPServer>(new HandlerFactory(router_, options_, *inFlight_), *pool_, listener_, params);
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

} // namespace storefront::http

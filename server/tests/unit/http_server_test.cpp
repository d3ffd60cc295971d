// The connection handling in http/server.cpp: one send per answer, the keep-alive wait in the event
// loops (http/event_loop.h), and stop() ending idle connections.
#include "http/router.h"
#include "http/server.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

using storefront::http::Access;
using storefront::http::Request;
using storefront::http::Response;
using storefront::http::Router;
using storefront::http::Server;
using storefront::http::ServerOptions;

namespace {

struct HttpServerTestAnswer {
    std::string head;
    std::string body;
};

// Reads one answer (headers and a Content-Length body) from `socket`, keeping any bytes after it
// in `pending` for the next call. Empty head when the server closed the connection first.
HttpServerTestAnswer httpServerTestRead(Poco::Net::StreamSocket& socket, std::string& pending) {
    char buffer[4096];
    auto fill = [&] {
        const int n = socket.receiveBytes(buffer, sizeof buffer);
        if (n > 0) pending.append(buffer, static_cast<std::size_t>(n));
        return n > 0;
    };
    while (pending.find("\r\n\r\n") == std::string::npos)
        if (!fill()) return {};
    const auto end = pending.find("\r\n\r\n") + 4;
    HttpServerTestAnswer answer{pending.substr(0, end), ""};
    const auto at = answer.head.find("Content-Length: ");
    const std::size_t length = at == std::string::npos ? 0 : std::stoul(answer.head.substr(at + 16));
    const bool head = answer.head.find("X-Test-Head: yes") != std::string::npos;
    const std::size_t bodyLength = head ? 0 : length;
    while (pending.size() < end + bodyLength)
        if (!fill()) return {};
    answer.body = pending.substr(end, bodyLength);
    pending.erase(0, end + bodyLength);
    return answer;
}

} // namespace

class HttpServerTest : public ::testing::Test {
protected:
    void start(int keepAliveSeconds) {
        router_.get("/ping", Access::Anyone, [](Request& req, Response& res) {
            res.text(200, "text/plain; charset=utf-8", "pong " + req.query("n").value_or(""));
            if (req.method() == "HEAD") res.set("X-Test-Head", "yes");
        });
        ServerOptions options;
        options.port = 0;
        options.keepAliveSeconds = keepAliveSeconds;
        server_ = std::make_unique<Server>(router_, options);
        server_->start();
    }
    Poco::Net::StreamSocket connect() {
        Poco::Net::StreamSocket socket(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(server_->port())));
        socket.setReceiveTimeout(Poco::Timespan(20, 0));
        return socket;
    }
    static void send(Poco::Net::StreamSocket& socket, const std::string& text) {
        socket.sendBytes(text.data(), static_cast<int>(text.size()));
    }

    Router router_;
    std::unique_ptr<Server> server_;
};

TEST_F(HttpServerTest, AnswersInOnePieceWithTheHeadersPocoWrote) {
    start(5);
    auto socket = connect();
    std::string pending;
    send(socket, "GET /ping?n=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    auto answer = httpServerTestRead(socket, pending);
    EXPECT_TRUE(answer.head.starts_with("HTTP/1.1 200 OK\r\nDate: ")) << answer.head;
    EXPECT_NE(answer.head.find("\r\nConnection: Keep-Alive\r\n"), std::string::npos);
    EXPECT_NE(answer.head.find("\r\nX-Content-Type-Options: nosniff\r\n"), std::string::npos);
    EXPECT_NE(answer.head.find("\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 6\r\n\r\n"), std::string::npos)
        << answer.head;
    EXPECT_EQ(answer.body, "pong 1");
    // HEAD: the body's length, no body.
    send(socket, "HEAD /ping?n=22 HTTP/1.1\r\nHost: x\r\n\r\n");
    answer = httpServerTestRead(socket, pending);
    EXPECT_NE(answer.head.find("\r\nContent-Length: 7\r\n"), std::string::npos) << answer.head;
    send(socket, "GET /ping?n=3 HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(httpServerTestRead(socket, pending).body, "pong 3");
    EXPECT_EQ(pending, "");
}

TEST_F(HttpServerTest, PipelinedRequestsOnOneConnectionAreAllAnswered) {
    start(5);
    auto socket = connect();
    std::string pending;
    send(socket, "GET /ping?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /ping?n=2 HTTP/1.1\r\nHost: x\r\n\r\n"
                 "GET /ping?n=3 HTTP/1.1\r\nHost: x\r\n\r\n");
    for (const char* expected : {"pong 1", "pong 2", "pong 3"}) EXPECT_EQ(httpServerTestRead(socket, pending).body, expected);
}

TEST_F(HttpServerTest, AClientThatSaysCloseIsClosedAfterItsAnswer) {
    start(5);
    auto socket = connect();
    std::string pending;
    send(socket, "GET /ping?n=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    auto answer = httpServerTestRead(socket, pending);
    EXPECT_NE(answer.head.find("\r\nConnection: Close\r\n"), std::string::npos) << answer.head;
    char byte;
    EXPECT_EQ(socket.receiveBytes(&byte, 1), 0); // closed, not kept waiting
}

TEST_F(HttpServerTest, AnIdleKeptAliveConnectionIsClosedAfterTheKeepAliveTimeout) {
    start(1);
    auto socket = connect();
    std::string pending;
    send(socket, "GET /ping?n=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(httpServerTestRead(socket, pending).body, "pong 1");
    const auto idle = std::chrono::steady_clock::now();
    char byte;
    EXPECT_EQ(socket.receiveBytes(&byte, 1), 0); // the receive timeout is 20 s
    const auto waited = std::chrono::steady_clock::now() - idle;
    EXPECT_GE(waited, std::chrono::milliseconds(900));
    EXPECT_LT(waited, std::chrono::seconds(15));
}

TEST_F(HttpServerTest, StopClosesIdleKeptAliveConnectionsAtOnce) {
    start(60); // an idle connection would otherwise hold stop() for a minute
    auto socket = connect();
    std::string pending;
    send(socket, "GET /ping?n=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(httpServerTestRead(socket, pending).body, "pong 1");
    const auto stopping = std::chrono::steady_clock::now();
    server_->stop();
    EXPECT_LT(std::chrono::steady_clock::now() - stopping, std::chrono::seconds(20));
    char byte;
    EXPECT_EQ(socket.receiveBytes(&byte, 1), 0);
}

// Reads a whole chunked body from `socket` after `head`: the pieces, and whether the last chunk came.
struct HttpServerTestChunked {
    std::string text;
    bool complete = false;
};
HttpServerTestChunked httpServerTestReadChunked(Poco::Net::StreamSocket& socket, std::string pending) {
    HttpServerTestChunked body;
    char buffer[4096];
    auto fill = [&] {
        const int n = socket.receiveBytes(buffer, sizeof buffer);
        if (n > 0) pending.append(buffer, static_cast<std::size_t>(n));
        return n > 0;
    };
    for (;;) {
        while (pending.find("\r\n") == std::string::npos)
            if (!fill()) return body;
        const auto line = pending.find("\r\n");
        const std::size_t size = std::stoul(pending.substr(0, line), nullptr, 16);
        while (pending.size() < line + 2 + size + 2)
            if (!fill()) return body;
        body.text += pending.substr(line + 2, size);
        pending.erase(0, line + 2 + size + 2);
        if (size == 0) {
            body.complete = true;
            return body;
        }
    }
}

TEST_F(HttpServerTest, AStreamedAnswerIsSentInChunksAndEndsWithTheLastChunk) {
    router_.get("/stream", Access::Anyone, [](Request&, Response& res) {
        res.streamed(200, "text/csv; charset=utf-8", [](const Response::Send& send) {
            send("a,b\r\n");
            send(""); // nothing: no chunk (an empty one would end the body)
            send(std::string(70000, 'x'));
        });
    });
    start(5);
    auto socket = connect();
    send(socket, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string pending;
    char buffer[4096];
    while (pending.find("\r\n\r\n") == std::string::npos) {
        const int n = socket.receiveBytes(buffer, sizeof buffer);
        ASSERT_GT(n, 0);
        pending.append(buffer, static_cast<std::size_t>(n));
    }
    const auto end = pending.find("\r\n\r\n") + 4;
    const auto head = pending.substr(0, end);
    EXPECT_TRUE(head.starts_with("HTTP/1.1 200 OK\r\n")) << head;
    EXPECT_NE(head.find("\r\nTransfer-Encoding: chunked\r\n"), std::string::npos) << head;
    EXPECT_EQ(head.find("Content-Length"), std::string::npos) << head;
    EXPECT_NE(head.find("\r\nContent-Type: text/csv; charset=utf-8\r\n"), std::string::npos) << head;
    EXPECT_NE(head.find("\r\nX-Content-Type-Options: nosniff\r\n"), std::string::npos) << head;
    auto body = httpServerTestReadChunked(socket, pending.substr(end));
    EXPECT_TRUE(body.complete);
    EXPECT_EQ(body.text, "a,b\r\n" + std::string(70000, 'x'));
    // The connection stays usable.
    send(socket, "GET /ping?n=2 HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string rest;
    EXPECT_EQ(httpServerTestRead(socket, rest).body, "pong 2");
}

TEST_F(HttpServerTest, AStreamThatFailsClosesTheConnectionWithoutTheLastChunk) {
    router_.get("/broken", Access::Anyone, [](Request&, Response& res) {
        res.streamed(200, "text/csv; charset=utf-8", [](const Response::Send& send) {
            send("first\r\n");
            throw std::runtime_error("the database went away");
        });
    });
    start(5);
    auto socket = connect();
    send(socket, "GET /broken HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string pending;
    char buffer[4096];
    int n;
    while ((n = socket.receiveBytes(buffer, sizeof buffer)) > 0) pending.append(buffer, static_cast<std::size_t>(n));
    EXPECT_TRUE(pending.starts_with("HTTP/1.1 200 OK\r\n"));
    EXPECT_NE(pending.find("\r\n\r\n7\r\nfirst\r\n\r\n"), std::string::npos) << pending;
    EXPECT_EQ(pending.find("\r\n0\r\n\r\n"), std::string::npos) << "no last chunk: the client sees an incomplete body";
}

TEST_F(HttpServerTest, AClientThatGoesAwayMakesTheStreamsSendThrow) {
    std::atomic<bool> failed{false};
    std::atomic<std::size_t> sent{0};
    router_.get("/big", Access::Anyone, [&](Request&, Response& res) {
        res.streamed(200, "text/csv; charset=utf-8", [&](const Response::Send& send) {
            const std::string piece(64 * 1024, 'y');
            try {
                for (int i = 0; i < 16 * 1024; ++i) { // 1 GiB: far more than the socket buffers hold
                    send(piece);
                    sent += piece.size();
                }
            } catch (...) {
                failed = true;
                throw;
            }
        });
    });
    start(5);
    {
        auto socket = connect();
        send(socket, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
        char buffer[4096];
        ASSERT_GT(socket.receiveBytes(buffer, sizeof buffer), 0);
        socket.close(); // the download is abandoned
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!failed && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(failed);
    EXPECT_LT(sent.load(), std::size_t{1} << 30);
}


// The event loops (http/event_loop.h): which requests a loop answers itself, and connections that
// move between a loop and a thread without losing or reordering a byte.
#include "http/event_loop.h"
#include "http/router.h"
#include "http/server.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using storefront::http::Access;
using storefront::http::loopRequestHead;
using storefront::http::Request;
using storefront::http::Response;
using storefront::http::Router;
using storefront::http::Server;
using storefront::http::ServerOptions;

TEST(LoopRequestHead, AWholeBodilessGetWithAPlainPathIsTheLoops) {
    auto head = loopRequestHead("GET /api/v1/products?page=2 HTTP/1.1\r\nHost: shop\r\nAccept: */*\r\n\r\n");
    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(head->method, "GET");
    EXPECT_EQ(head->path, "/api/v1/products");
    head = loopRequestHead("HEAD / HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(head->method, "HEAD");
    EXPECT_EQ(head->path, "/");
}

TEST(LoopRequestHead, AnythingElseIsReadOnAThread) {
    for (const char* bytes : {
             "GET / HTTP/1.1\r\nHost: shop\r\n",                                       // not whole yet
             "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n",                            // a second request follows
             "POST /api/v1/contact HTTP/1.1\r\nContent-Length: 2\r\n\r\n",             // a body
             "GET / HTTP/1.1\r\ncontent-LENGTH: 0\r\n\r\n",                             // any length, any case
             "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
             "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
             "GET / HTTP/1.0\r\n\r\n",                                                  // not HTTP/1.1
             "GET /a%2Fb HTTP/1.1\r\n\r\n",                                             // an escape to decode
             "GET /assets/../secret HTTP/1.1\r\n\r\n",                                  // dot segments
             "GET /a#b HTTP/1.1\r\n\r\n",
             "GET http://shop/ HTTP/1.1\r\n\r\n",                                       // absolute form
             "GET /\x01 HTTP/1.1\r\n\r\n",
             "GET / HTTP/1.1\r\nHost: shop\r\n folded\r\n\r\n",                         // an obsolete folded line
             "GET / HTTP/1.1\r\nno colon here\r\n\r\n",
             "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
             "GET  / HTTP/1.1\r\n\r\n",
         }) {
        EXPECT_FALSE(loopRequestHead(bytes).has_value()) << bytes;
    }
    std::string many = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 101; ++i) many += "X-" + std::to_string(i) + ": y\r\n";
    EXPECT_FALSE(loopRequestHead(many + "\r\n").has_value()) << "past POCO's 100 fields";
}

TEST(RouterRunsOnLoop, OnlyMarkedGetRoutesAndAMarkedFallback) {
    Router router;
    const auto answer = [](Request&, Response& res) { res.text(200, "text/plain", "x"); };
    router.get("/fast/{slug}", Access::Anyone, answer);
    router.get("/slow", Access::Anyone, answer);
    router.post("/form", Access::Anyone, answer);
    router.runOnLoop("/fast/{slug}");
    EXPECT_TRUE(router.runsOnLoop("GET", "/fast/one"));
    EXPECT_TRUE(router.runsOnLoop("HEAD", "/fast/one"));
    EXPECT_FALSE(router.runsOnLoop("POST", "/fast/one"));
    EXPECT_FALSE(router.runsOnLoop("GET", "/slow"));
    EXPECT_FALSE(router.runsOnLoop("GET", "/form")) << "a 405 is the thread's to answer";
    EXPECT_FALSE(router.runsOnLoop("GET", "/anything")) << "no fallback";
    EXPECT_THROW(router.runOnLoop("/missing"), std::logic_error);
    router.fallback(answer);
    EXPECT_FALSE(router.runsOnLoop("GET", "/anything"));
    router.runFallbackOnLoop();
    EXPECT_TRUE(router.runsOnLoop("GET", "/anything"));
    EXPECT_FALSE(router.runsOnLoop("GET", "/api/v1/unknown")) << "the server's own paths never fall through";
}

namespace {

// Reads one Content-Length answer, keeping what follows it in `pending`; "" when the server closed.
std::string eventLoopTestRead(Poco::Net::StreamSocket& socket, std::string& pending) {
    char buffer[16384];
    const auto fill = [&] {
        const int n = socket.receiveBytes(buffer, sizeof buffer);
        if (n > 0) pending.append(buffer, static_cast<std::size_t>(n));
        return n > 0;
    };
    while (pending.find("\r\n\r\n") == std::string::npos)
        if (!fill()) return "";
    const auto end = pending.find("\r\n\r\n") + 4;
    const auto at = pending.find("Content-Length: ");
    const std::size_t length = std::stoul(pending.substr(at + 16));
    while (pending.size() < end + length)
        if (!fill()) return "";
    auto body = pending.substr(end, length);
    pending.erase(0, end + length);
    return body;
}

} // namespace

class HttpEventLoopTest : public ::testing::Test {
protected:
    void start(int maxThreads = 64) {
        router_.get("/fast", Access::Anyone, [](Request& req, Response& res) {
            const auto size = std::stoul(req.query("size").value_or("4"));
            res.text(200, "text/plain", req.query("n").value_or("") + ":" + std::string(size, 'f'));
        });
        router_.get("/slow", Access::Anyone, [](Request& req, Response& res) {
            res.text(200, "text/plain", "slow " + req.query("n").value_or(""));
        });
        router_.post("/echo", Access::Anyone, [](Request& req, Response& res) { res.text(200, "text/plain", req.body()); });
        router_.runOnLoop("/fast");
        ServerOptions options;
        options.port = 0;
        options.maxThreads = maxThreads;
        options.maxQueued = 4;
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

TEST_F(HttpEventLoopTest, OneConnectionMovesBetweenTheLoopAndAThreadAndKeepsItsOrder) {
    start();
    auto socket = connect();
    std::string pending;
    for (int round = 0; round < 20; ++round) {
        const auto n = std::to_string(round);
        send(socket, "GET /fast?n=" + n + " HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(eventLoopTestRead(socket, pending), n + ":ffff");
        send(socket, "GET /slow?n=" + n + " HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(eventLoopTestRead(socket, pending), "slow " + n);
        send(socket, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhel");
        std::this_thread::sleep_for(std::chrono::milliseconds(2)); // the body's rest arrives later
        send(socket, "lo");
        EXPECT_EQ(eventLoopTestRead(socket, pending), "hello");
        // Pipelined: a thread answers both.
        send(socket, "GET /fast?n=a HTTP/1.1\r\nHost: x\r\n\r\nGET /fast?n=b HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(eventLoopTestRead(socket, pending), "a:ffff");
        EXPECT_EQ(eventLoopTestRead(socket, pending), "b:ffff");
    }
    EXPECT_EQ(pending, "");
}

TEST_F(HttpEventLoopTest, AClientThatReadsNothingGetsEveryAnswerWholeOnceItReads) {
    start();
    auto socket = connect();
    std::string pending;
    send(socket, "GET /fast?n=first HTTP/1.1\r\nHost: x\r\n\r\n"); // the first request is a thread's
    EXPECT_EQ(eventLoopTestRead(socket, pending), "first:ffff");
    // 160 answers of 64 KiB (10 MiB, far past the socket buffers) asked for one at a time, none read
    // yet: the loop's sends fill the buffers, and a thread sends the rest under the send timeout.
    const std::size_t size = 64 * 1024;
    for (int i = 0; i < 160; ++i) {
        send(socket, "GET /fast?size=" + std::to_string(size) + "&n=" + std::to_string(i) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (int i = 0; i < 160; ++i) {
        const auto body = eventLoopTestRead(socket, pending);
        ASSERT_EQ(body, std::to_string(i) + ":" + std::string(size, 'f')) << "answer " << i;
    }
    send(socket, "GET /fast?n=last HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(eventLoopTestRead(socket, pending), "last:ffff");
}

TEST_F(HttpEventLoopTest, IdleKeptAliveConnectionsHoldNoThread) {
    start(8); // 8 threads, and at most 4 connections waiting for one
    std::vector<Poco::Net::StreamSocket> idle;
    for (int i = 0; i < 64; ++i) {
        idle.push_back(connect());
        std::string pending;
        send(idle.back(), "GET /slow?n=" + std::to_string(i) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        ASSERT_EQ(eventLoopTestRead(idle.back(), pending), "slow " + std::to_string(i));
    }
    // Sixty-four open, idle connections: a new visitor and each of them is still answered at once.
    auto fresh = connect();
    std::string pending;
    const auto asked = std::chrono::steady_clock::now();
    send(fresh, "GET /slow?n=new HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(eventLoopTestRead(fresh, pending), "slow new");
    EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(2));
    for (auto& socket : idle) {
        send(socket, "GET /slow?n=again HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(eventLoopTestRead(socket, pending), "slow again");
    }
}

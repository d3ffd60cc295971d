// Overload past the connection queue: a server with 4 HTTP threads (the configuration's minimum)
// and a queue of 2. Four requests are held in their handlers (headers sent with
// `Expect: 100-continue`, the body withheld: the 100 proves a thread runs each), two more
// connections wait in the queue, and every further connection gets 503 server_busy with
// Retry-After and the security headers from the accept thread, at once. When the held requests
// finish, the queued ones are served and new requests succeed. See docs/reliability.md.
#include "api/harness.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <vector>

using namespace testing_support;

namespace {

// Reads from `socket` until the end of an answer's head (or the close, or the socket's timeout).
std::string httpEdgeReadHead(Poco::Net::StreamSocket& socket) {
    std::string text;
    char c;
    try {
        while (text.find("\r\n\r\n") == std::string::npos && socket.receiveBytes(&c, 1) == 1) text.push_back(c);
    } catch (const Poco::Exception&) {
    }
    return text;
}

// Reads until the server closes (or the socket's timeout).
std::string httpEdgeReadAll(Poco::Net::StreamSocket& socket) {
    std::string text;
    char buffer[4096];
    try {
        while (true) {
            const int n = socket.receiveBytes(buffer, sizeof buffer);
            if (n <= 0) break;
            text.append(buffer, static_cast<std::size_t>(n));
        }
    } catch (const Poco::Exception&) {
    }
    return text;
}

void httpEdgeSend(Poco::Net::StreamSocket& socket, const std::string& bytes) {
    socket.sendBytes(bytes.data(), static_cast<int>(bytes.size()));
}

} // namespace

TEST(HttpEdge, ConnectionsPastTheQueueGet503ServerBusyAtOnceAndTheServerRecovers) {
    constexpr int kThreads = 4, kQueue = 2, kRefused = 6;
    const int port = serverWith({{"STOREFRONT_HTTP_THREADS", std::to_string(kThreads)},
                                 {"STOREFRONT_HTTP_QUEUE", std::to_string(kQueue)}});
    const Poco::Net::SocketAddress address("127.0.0.1", static_cast<Poco::UInt16>(port));
    ASSERT_EQ(http(port, "GET", "/healthz", "", {{"Connection", "close"}}).status, 200);

    // Every thread busy: a request in each handler, waiting for its body.
    const std::string body = "{}";
    std::vector<Poco::Net::StreamSocket> held(kThreads);
    for (int i = 0; i < kThreads; ++i) {
        auto& s = held[static_cast<std::size_t>(i)];
        s.connect(address);
        s.setReceiveTimeout(Poco::Timespan(20, 0));
        httpEdgeSend(s, "POST /api/v1/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                        "Content-Length: " + std::to_string(body.size()) + "\r\nExpect: 100-continue\r\nX-Forwarded-For: 198.51.100." +
                            std::to_string(60 + i) + "\r\n\r\n");
        const auto head = httpEdgeReadHead(s);
        ASSERT_TRUE(head.starts_with("HTTP/1.1 100")) << "held request " << i << ": " << head;
    }
    // The queue full: two connections accepted and waiting for a thread (accepted in the order
    // they connected, before any of the ones below).
    std::vector<Poco::Net::StreamSocket> queued(kQueue);
    for (auto& s : queued) {
        s.connect(address);
        s.setReceiveTimeout(Poco::Timespan(20, 0));
        httpEdgeSend(s, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    }

    // Past the queue: 503 server_busy, Retry-After, the security headers, the close.
    double slowest = 0;
    for (int i = 0; i < kRefused; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = rawHttp(port, "GET /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", false, 10);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        slowest = std::max(slowest, took);
        EXPECT_EQ(r.status, 503) << "connection " << i << ": " << r.body.substr(0, 200);
        const auto json = nlohmann::json::parse(r.body, nullptr, false);
        EXPECT_EQ(json.is_object() ? json.value("code", "") : "", "server_busy") << r.body.substr(0, 200);
        EXPECT_EQ(r.header("retry-after"), "1");
        EXPECT_EQ(r.header("connection"), "close");
        EXPECT_NE(r.header("content-security-policy").find("frame-ancestors 'none'"), std::string::npos);
        EXPECT_EQ(r.header("x-content-type-options"), "nosniff");
        EXPECT_EQ(r.header("x-frame-options"), "DENY");
        EXPECT_FALSE(r.header("referrer-policy").empty());
        // Generous: the answer is written by the accept thread at once (milliseconds); a timeout
        // (the old silent close made the client wait for nothing) would take the full 10 s.
        EXPECT_LT(took, 5.0) << "connection " << i;
    }
    std::cout << "overload: " << kRefused << " connections past " << kThreads << " threads + " << kQueue
              << " queued answered 503 server_busy, slowest " << slowest << " s\n";

    // The held requests finish (their bodies arrive: 422, the contact form is empty), then the
    // queued connections are served, then new requests succeed.
    for (auto& s : held) httpEdgeSend(s, body);
    for (auto& s : held) {
        const auto answer = parseRawAnswer(httpEdgeReadAll(s));
        EXPECT_EQ(answer.status, 422) << answer.body.substr(0, 200);
    }
    for (auto& s : queued) {
        const auto answer = parseRawAnswer(httpEdgeReadAll(s));
        EXPECT_EQ(answer.status, 200) << "a queued connection: " << answer.body.substr(0, 200);
    }
    EXPECT_TRUE(eventually([&] { return http(port, "GET", "/api/v1/products", "", {{"Connection", "close"}}).status == 200; }));
    for (int i = 0; i < 8; ++i) EXPECT_EQ(http(port, "GET", "/api/v1/products", "", {{"Connection", "close"}}).status, 200);
}

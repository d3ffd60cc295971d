// Issue 32, slow and stalled clients, with raw sockets:
//  - stalled exports (a reader takes 2 KB, then stops reading) hold no database session while
//    they wait, at most STOREFRONT_MAX_EXPORTS stream at once (the next is 429 too_many_exports
//    with Retry-After), the rest of the server answers meanwhile, and once their readers go they
//    end (audited as unfinished) and their slots are free again; one whose reader stays is dropped
//    at the send timeout;
//  - slowloris clients (headers a byte at a time) are cut at the header timeout with 408 and
//    never hold more than their share of the threads: /healthz answers throughout.
// The bounds asserted are generous (seconds, not milliseconds); bench/slow-clients measures.
#include "api/admin_support.h"
#include "billing/orders/rules.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/String.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <regex>
#include <thread>
#include <vector>

using namespace testing_support;

namespace {

using SlowClock = std::chrono::steady_clock;

double slowSecondsSince(SlowClock::time_point t0) {
    return std::chrono::duration<double>(SlowClock::now() - t0).count();
}

// A download whose reader takes the first `bytes` of the answer, then stops reading (its socket
// stays open, with a small receive buffer, so the server's sends fill up and block).
struct StalledReader {
    std::unique_ptr<Poco::Net::StreamSocket> socket;
    std::string head; // what was read: the status line and headers at least

    StalledReader(int port, const std::string& path, const Headers& headers, std::size_t bytes = 2048) {
        socket = std::make_unique<Poco::Net::StreamSocket>(Poco::Net::SocketAddress::IPv4);
        socket->setReceiveBufferSize(4096);
        socket->connect(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)));
        socket->setReceiveTimeout(Poco::Timespan(10, 0));
        std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        for (const auto& [k, v] : headers) request += k + ": " + v + "\r\n";
        request += "\r\n";
        socket->sendBytes(request.data(), static_cast<int>(request.size()));
        char buffer[512];
        try {
            while (head.size() < bytes) {
                const int n = socket->receiveBytes(buffer, sizeof buffer);
                if (n <= 0) break;
                head.append(buffer, static_cast<std::size_t>(n));
            }
        } catch (const Poco::Exception&) {
        }
    }
    int status() const { return head.starts_with("HTTP/1.1 ") ? std::atoi(head.c_str() + 9) : 0; }
};

// The database sessions in use now, from /metrics (loopback may read it).
int slowSessionsInUse(int port) {
    const auto metrics = http(port, "GET", "/metrics");
    static const std::regex inUse(R"re(storefront_db_pool_sessions\{state="in_use"\} (\d+))re");
    std::smatch m;
    if (metrics.status != 200 || !std::regex_search(metrics.body, m, inUse)) return -1;
    return std::stoi(m[1]);
}

// A GET on a new connection that closes after the answer; status 0 when none came in `seconds`.
int slowGet(int port, const std::string& path, const Headers& headers = {}, int seconds = 5) {
    std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    for (const auto& [k, v] : headers) request += k + ": " + v + "\r\n";
    return rawHttp(port, request + "\r\n", false, seconds).status;
}

// 20,000 paid orders of one made-up customer, about 10 MB as CSV: far more than the socket
// buffers hold (Linux grows a socket's send buffer up to 4 MB). Removed again afterwards: the
// other tests' lists and exports need not carry them.
struct StalledOrders {
    std::string tag = unique("stall-");
    std::string path = "/api/v1/admin/orders/export.csv?q=" + tag + "%40example.nz";
    StalledOrders() {
        const auto at = testClock().timestampAfter(-60);
        const std::string wide = "Wide " + std::string(190, 'w'); // the columns hold 200 characters
        env().db->write([&](storefront::db::Tx& tx) {
            for (int i = 0; i < 20000; ++i)
                tx.query("INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, shipping_name, "
                         "shipping_line1, shipping_city, shipping_postal_code, shipping_country, created_at, updated_at) "
                         "VALUES (?, ?, 'paid', 100, 'NZD', ?, ?, '1 Queen Street', ?, '1010', 'NZ', ?, ?)")
                    .bind(storefront::db::newId(), storefront::billing::newOrderNumber(), tag + "@example.nz", wide, wide, at, at)
                    .run();
        });
    }
    ~StalledOrders() { execSql("DELETE FROM orders WHERE customer_email = ?", {tag + "@example.nz"}); }
    StalledOrders(const StalledOrders&) = delete;
    StalledOrders& operator=(const StalledOrders&) = delete;
    // Its exports audited as ended before the whole file was sent.
    std::int64_t unfinished() const {
        return countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'list.exported' AND detail LIKE ? AND detail LIKE ?",
                         {"%" + tag + "%", "%\"completed\":false%"});
    }
};

} // namespace

TEST(SlowClients, StalledExportsHoldNoSessionAndOnlyFourStreamAtOnce) {
    // A send timeout far longer than the test: the stalled readers stay until they close.
    const int port = serverWith({{"STOREFRONT_SEND_TIMEOUT_SECONDS", "120"}, {"STOREFRONT_MAX_EXPORTS", "4"}});
    const StalledOrders orders;
    const auto& admin = callers().admin;
    const auto sessionsBefore = slowSessionsInUse(port);
    ASSERT_GE(sessionsBefore, 0) << "no storefront_db_pool_sessions in /metrics";

    std::vector<std::unique_ptr<StalledReader>> stalled;
    for (int i = 0; i < 4; ++i) {
        stalled.push_back(std::make_unique<StalledReader>(port, orders.path, admin));
        ASSERT_EQ(stalled.back()->status(), 200) << stalled.back()->head.substr(0, 300);
    }
    // The fifth export while four are stalled: refused at once, with a time to come back.
    const auto fifth = http(port, "GET", orders.path, "", admin);
    EXPECT_EQ(fifth.status, 429) << fifth.body.substr(0, 300);
    EXPECT_NE(fifth.body.find("\"too_many_exports\""), std::string::npos) << fifth.body.substr(0, 300);
    EXPECT_FALSE(fifth.header("retry-after").empty());
    // The rest of the server answers meanwhile (generous bounds: the bench measures).
    for (const auto& [what, target] : std::vector<std::pair<std::string, std::string>>{
             {"health", "/healthz"}, {"catalogue", "/api/v1/products"}, {"admin list", "/api/v1/admin/orders?page_size=50"}}) {
        const auto t0 = SlowClock::now();
        const auto r = http(port, "GET", target, "", admin);
        EXPECT_EQ(r.status, 200) << what;
        EXPECT_LT(slowSecondsSince(t0), 2.0) << what;
    }
    // No database session is held by a download waiting on its reader (the old exports held one
    // each for the whole download: at least four in use now). Under the sanitizer a batch takes
    // a few seconds to fill the socket buffers.
    EXPECT_TRUE(eventually([&] { return slowSessionsInUse(port) == 0; }, 30)) << "in use: " << slowSessionsInUse(port);
    EXPECT_EQ(orders.unfinished(), 0) << "an export ended while its reader was still there";

    // The readers go away: the four downloads end, recorded as unfinished, and their slots are free.
    stalled.clear();
    EXPECT_TRUE(eventually([&] { return orders.unfinished() == 4; }, 30)) << orders.unfinished() << " unfinished exports recorded";
    const auto whole = http(port, "GET", orders.path, "", admin);
    ASSERT_EQ(whole.status, 200) << whole.body.substr(0, 300);
    EXPECT_GT(whole.body.size(), 8000000u);
}

TEST(SlowClients, AStalledExportIsDroppedAtTheSendTimeout) {
    // A reader that takes 2 KB and then nothing: its download ends once a send has waited the send
    // timeout (the kernel's buffers growing a little now and then do not keep it going), and is
    // recorded as unfinished; a reader still there is not dropped before then.
    constexpr int kTimeout = 3;
    const int port = serverWith({{"STOREFRONT_SEND_TIMEOUT_SECONDS", std::to_string(kTimeout)}});
    const StalledOrders orders;
    const auto t0 = SlowClock::now();
    StalledReader reader(port, orders.path, callers().admin);
    ASSERT_EQ(reader.status(), 200) << reader.head.substr(0, 300);
    EXPECT_TRUE(eventually([&] { return orders.unfinished() == 1; }, 60)) << "the stalled export was never dropped";
    const double dropped = slowSecondsSince(t0);
    std::cout << "slow clients: a stalled export dropped " << dropped << " s after it began (send timeout " << kTimeout << " s)\n";
    EXPECT_GE(dropped, kTimeout - 0.5) << "dropped before the send timeout";
}

TEST(SlowClients, HeadersSentAByteAtATimeAreCutAt408AndHoldABoundedShareOfTheThreads) {
    // 8 threads: at most a quarter of them (and never fewer than 4) may be reading headers at once.
    const int port = serverWith({{"STOREFRONT_HTTP_THREADS", "8"}, {"STOREFRONT_HTTP_HEADER_TIMEOUT_SECONDS", "3"}});
    constexpr int kSlow = 12;
    std::atomic<bool> done{false};
    std::atomic<int> cut{0}, answered408{0};
    std::vector<double> heldFor(kSlow, 0);
    std::vector<std::thread> slow;
    for (int i = 0; i < kSlow; ++i)
        slow.emplace_back([&, i] {
            const auto t0 = SlowClock::now();
            try {
                Poco::Net::StreamSocket s(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)));
                const std::string request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + std::string(200, 'a');
                s.setReceiveTimeout(Poco::Timespan(0, 300000));
                std::string answer;
                for (std::size_t at = 0; at < request.size() && !done; ++at) {
                    if (s.sendBytes(&request[at], 1) <= 0) break;
                    char buffer[1024];
                    try {
                        const int n = s.receiveBytes(buffer, sizeof buffer); // waits 300 ms: the trickle's pace
                        if (n <= 0) break;                                   // closed
                        answer.append(buffer, static_cast<std::size_t>(n));
                    } catch (const Poco::TimeoutException&) {
                    }
                }
                if (answer.starts_with("HTTP/1.1 408")) ++answered408;
            } catch (const Poco::Exception&) {
                // reset: cut too
            }
            heldFor[i] = slowSecondsSince(t0);
            ++cut;
        });
    // While they trickle, the server still answers others.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    int healthy = 0;
    double slowest = 0;
    for (int i = 0; i < 10; ++i) {
        const auto t0 = SlowClock::now();
        if (slowGet(port, "/healthz", {}, 3) == 200) ++healthy;
        slowest = std::max(slowest, slowSecondsSince(t0));
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    EXPECT_EQ(healthy, 10) << "slowest /healthz " << slowest << " s";
    // Every slow sender is cut within the header timeout and a margin (it would trickle for a minute).
    const auto waitStart = SlowClock::now();
    while (cut < kSlow && slowSecondsSince(waitStart) < 15) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    done = true;
    for (auto& t : slow) t.join();
    double longest = 0;
    for (double h : heldFor) longest = std::max(longest, h);
    std::cout << "slowloris: " << kSlow << " slow senders, /healthz slowest " << slowest << " s, longest held " << longest
              << " s, " << answered408 << " answered 408\n";
    EXPECT_LT(longest, 10.0);
    EXPECT_GE(answered408.load(), kSlow / 2) << "the cut senders are told 408";
}

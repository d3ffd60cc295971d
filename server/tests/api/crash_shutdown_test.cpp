// SIGTERM and overload against the real executable.
//  - SIGTERM: 20 requests in flight (the server has read their headers and answered
//    100 Continue) when the signal arrives all finish; from then on new connections are refused;
//    a request whose client never sends its body is cut at the drain timeout
//    (STOREFRONT_DRAIN_SECONDS) and the process exits 0 soon after.
//  - Overload: more clients at once than HTTP threads and database sessions, while the database
//    is held busy: every client gets an answer within seconds, 503 with Retry-After when the
//    server cannot serve it; afterwards the server answers normally.
#include "api/billing_support.h"
#include "api/crash_support.h"

#include <Poco/Net/NetException.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>

using namespace testing_support;
using namespace Poco::Data::Keywords;

namespace {

// Reads from `socket` until the end of a response's headers; "" when the connection ends first.
std::string shutdownReadHead(Poco::Net::StreamSocket& socket) {
    std::string text;
    char c;
    while (text.find("\r\n\r\n") == std::string::npos) {
        int n = socket.receiveBytes(&c, 1);
        if (n <= 0) return "";
        text += c;
    }
    return text;
}

int shutdownStatusOf(const std::string& head) {
    if (!head.starts_with("HTTP/1.1 ") || head.size() < 12) return 0;
    return std::stoi(head.substr(9, 3));
}

bool shutdownRefused(int port) {
    try {
        Poco::Net::StreamSocket probe;
        probe.connect(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)), Poco::Timespan(1, 0));
        probe.close();
        return false;
    } catch (const Poco::Net::ConnectionRefusedException&) {
        return true;
    } catch (const Poco::Exception&) {
        return false;
    }
}

} // namespace

TEST(CrashShutdown, SigtermFinishesRequestsInFlightRefusesNewConnectionsAndExitsWithinTheDrainTimeout) {
    constexpr int kInFlight = 20;
    constexpr int kDrainSeconds = 3;
    ChildServer child({{"STOREFRONT_DRAIN_SECONDS", std::to_string(kDrainSeconds)}, {"STOREFRONT_LOG_LEVEL", "information"}});
    ASSERT_NO_THROW(child.start());
    const auto address = Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(child.port()));
    const std::string tag = unique("sigterm");

    // Each request sends its headers, then waits for 100 Continue: the server has read the
    // request and is running its handler, which is reading the body.
    std::vector<std::string> bodies;
    std::vector<Poco::Net::StreamSocket> sockets(kInFlight + 1);
    for (int i = 0; i <= kInFlight; ++i) {
        const std::string email = tag + "-" + std::to_string(i) + "@example.nz";
        bodies.push_back(nlohmann::json{{"name", "Drain Test"}, {"email", email}, {"company", "Waka Traffic"},
                                        {"message", "In flight when the server was told to stop."}}
                             .dump());
        auto& s = sockets[static_cast<std::size_t>(i)];
        s.connect(address);
        s.setReceiveTimeout(Poco::Timespan(20, 0));
        const std::string head = "POST /api/v1/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                 "Content-Length: " + std::to_string(bodies.back().size()) +
                                 "\r\nExpect: 100-continue\r\nX-Forwarded-For: 198.51.100." + std::to_string(i + 1) + "\r\n\r\n";
        s.sendBytes(head.data(), static_cast<int>(head.size()));
        ASSERT_EQ(shutdownStatusOf(shutdownReadHead(s)), 100) << "request " << i;
    }

    const auto signalled = std::chrono::steady_clock::now();
    child.signal(SIGTERM);
    // New connections are refused (not left waiting) while the requests in flight are running.
    bool refused = false;
    while (!refused && std::chrono::steady_clock::now() - signalled < std::chrono::seconds(kDrainSeconds - 1)) {
        refused = shutdownRefused(child.port());
        if (!refused) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const double refusedAfter = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
    EXPECT_TRUE(refused) << "a new connection was still accepted " << refusedAfter << " s after SIGTERM";

    // The requests in flight finish: every one is answered and stored. The last one never sends
    // its body.
    int answered = 0;
    for (int i = 0; i < kInFlight; ++i) {
        auto& s = sockets[static_cast<std::size_t>(i)];
        s.sendBytes(bodies[static_cast<std::size_t>(i)].data(), static_cast<int>(bodies[static_cast<std::size_t>(i)].size()));
        const int status = shutdownStatusOf(shutdownReadHead(s));
        EXPECT_EQ(status, 201) << "request " << i;
        if (status == 201) ++answered;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE email LIKE ?", {tag + "-%"}), kInFlight);

    // The silent one is cut at the drain timeout; the process then exits 0.
    const int status = child.waitFor(std::chrono::seconds(kDrainSeconds + 10));
    const double exitedAfter = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
    EXPECT_EQ(status, 0) << child.log();
    EXPECT_LT(exitedAfter, kDrainSeconds + 3.0) << child.log();
    EXPECT_EQ(shutdownReadHead(sockets[kInFlight]), "");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE email = ?", {tag + "-" + std::to_string(kInFlight) + "@example.nz"}), 0);
    const auto log = child.log();
    EXPECT_NE(log.find("drain timeout"), std::string::npos) << log;
    EXPECT_NE(log.find("stopped"), std::string::npos) << log;
    std::cout << "[ figures  ] SIGTERM with " << kInFlight << " requests in flight: " << answered << " answered, "
              << (kInFlight - answered) << " dropped; new connections refused after " << refusedAfter
              << " s; exited " << exitedAfter << " s after the signal (drain timeout " << kDrainSeconds
              << " s, one client never sent its body)" << std::endl;
}

TEST(CrashShutdown, SigtermWithNothingInFlightExitsAtOnce) {
    ChildServer child(std::map<std::string, std::string>{{"STOREFRONT_DRAIN_SECONDS", "30"}});
    ASSERT_NO_THROW(child.start());
    // An idle keep-alive connection does not hold the shutdown up.
    Poco::Net::StreamSocket idle(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(child.port())));
    idle.setReceiveTimeout(Poco::Timespan(20, 0));
    const std::string request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    idle.sendBytes(request.data(), static_cast<int>(request.size()));
    ASSERT_EQ(shutdownStatusOf(shutdownReadHead(idle)), 200);
    const auto signalled = std::chrono::steady_clock::now();
    child.signal(SIGTERM);
    EXPECT_EQ(child.waitFor(std::chrono::seconds(20)), 0) << child.log();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count(), 3.0);
}

TEST(CrashOverload, MoreClientsThanThreadsAndSessionsGet503QuicklyNeverALongWait) {
    constexpr int kClients = 40;
    constexpr int kHoldMs = 3000;
    ChildServer child({{"STOREFRONT_HTTP_THREADS", "4"},
                       {"STOREFRONT_HTTP_QUEUE", "64"},
                       {"STOREFRONT_DB_POOL", "2"},
                       {"STOREFRONT_DB_WAIT_MS", "500"}});
    ASSERT_NO_THROW(child.start());
    const int port = child.port();
    auto hardware = createHardware(1000, 900);
    std::vector<Session> buyers;
    for (int i = 0; i < 4; ++i) buyers.push_back(newBuyer("overload"));

    // Hold the product's row (PostgreSQL) or the whole database's write lock (SQLite) from here,
    // as a long transaction elsewhere would.
    std::promise<void> release, holding;
    std::thread holder([&] {
        env().db->write([&](storefront::db::Tx& tx) {
            std::string id = hardware.id;
            tx.session() << tx.database().sql("UPDATE products SET stock_quantity = stock_quantity WHERE id = ?"), use(id), now;
            holding.set_value();
            release.get_future().wait();
        });
    });
    holding.get_future().wait();
    const auto held = std::chrono::steady_clock::now();

    struct Answer {
        int status = 0;
        std::string retryAfter, code;
        double seconds = 0;
        bool write = false;
    };
    std::vector<Answer> answers(kClients);
    std::atomic<bool> go{false};
    std::vector<std::thread> clients;
    for (int i = 0; i < kClients; ++i) {
        clients.emplace_back([&, i] {
            while (!go) std::this_thread::yield();
            auto& a = answers[static_cast<std::size_t>(i)];
            a.write = i % 2 == 0;
            const auto start = std::chrono::steady_clock::now();
            try {
                auto headers = buyers[static_cast<std::size_t>(i) % buyers.size()].headers();
                headers["Connection"] = "close";
                auto r = a.write ? sendJson(port, "POST", "/functions/v1/create-checkout-session",
                                            {{"productSlug", hardware.slug}, {"quantity", 1}}, headers)
                                 : http(port, "GET", "/api/v1/account/dashboard", "", headers);
                a.status = r.status;
                a.retryAfter = r.header("retry-after");
                if (r.status >= 400) a.code = r.json().value("code", "");
            } catch (const std::exception& e) {
                a.code = e.what();
            }
            a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
    }
    go = true;
    // Release the lock after kHoldMs: clients still waiting then (in a queue or on the lock) finish.
    std::this_thread::sleep_until(held + std::chrono::milliseconds(kHoldMs));
    release.set_value();
    holder.join();
    for (auto& c : clients) c.join();

    int ok = 0, busy = 0, other = 0;
    double slowest = 0;
    for (const auto& a : answers) {
        slowest = std::max(slowest, a.seconds);
        if (a.status == 200) ++ok;
        else if (a.status == 503) {
            ++busy;
            EXPECT_FALSE(a.retryAfter.empty());
            EXPECT_EQ(a.code, "server_busy");
        } else {
            ++other;
            ADD_FAILURE() << (a.write ? "checkout" : "dashboard") << " answered " << a.status << " " << a.code;
        }
    }
    EXPECT_GT(busy, 0);
    EXPECT_EQ(other, 0);
    // Never a long wait: the slowest answer comes within seconds (the lock was held 3 s).
    EXPECT_LT(slowest, 15.0);
    // Afterwards it serves normally again.
    auto after = startCheckout(buyers[0], {{"productSlug", hardware.slug}, {"quantity", 1}}, port);
    EXPECT_EQ(after.status, 200) << after.body;
    const auto sold = countRows("SELECT COUNT(*) FROM checkout_sessions WHERE product_id = ?", {hardware.id});
    EXPECT_EQ(stockOf(hardware.id), 1000 - sold);
    std::cout << "[ figures  ] overload (" << kClients << " clients, 4 HTTP threads, 2 database sessions, database held "
              << kHoldMs << " ms): " << ok << " answered 200, " << busy << " answered 503 with Retry-After, " << other
              << " other; slowest answer " << slowest << " s" << std::endl;
    if (HasFailure()) std::cout << child.log() << std::endl;
}

// PostgreSQL: a request waiting for a row lock a stuck transaction holds gets 503 server_busy after
// STOREFRONT_DB_LOCK_TIMEOUT_MS (here 1 s), not after the transaction ends; afterwards the same
// request succeeds. (SQLite has one writer at a time; STOREFRONT_DB_WAIT_MS bounds that wait.)
TEST(CrashOverload, ARowLockHeldByAStuckTransactionAnswers503AfterTheLockTimeout) {
    if (env().db->dialect() != storefront::db::Dialect::PostgreSQL) GTEST_SKIP() << "PostgreSQL only (lock_timeout)";
    const int port = serverWith({{"STOREFRONT_DB_LOCK_TIMEOUT_MS", "1000"}});
    auto hardware = createHardware(100, 90);
    auto buyer = newBuyer("locktimeout");

    std::promise<void> release, holding;
    auto released = release.get_future();
    std::thread holder([&] {
        env().db->write([&](storefront::db::Tx& tx) {
            std::string id = hardware.id;
            tx.session() << tx.database().sql("UPDATE products SET stock_quantity = stock_quantity WHERE id = ?"), use(id), now;
            holding.set_value();
            // Bounded, so that a server without the timeout makes the test fail instead of hang.
            released.wait_for(std::chrono::seconds(20));
        });
    });
    holding.get_future().wait();
    const auto t0 = std::chrono::steady_clock::now();
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 1}}, port);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    release.set_value();
    holder.join();

    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.status == 503 ? r.json().value("code", "") : "", "server_busy") << r.body;
    EXPECT_EQ(r.header("retry-after"), "1");
    EXPECT_GE(waited, 0.9) << "answered before the lock timeout";
    EXPECT_LT(waited, 10.0) << "waited for the lock instead of timing out";
    std::cout << "[ figures  ] row lock held, lock_timeout 1000 ms: " << r.status << " after " << waited << " s" << std::endl;
    // Nothing was sold by the refused request; with the lock gone the same checkout succeeds.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE product_id = ?", {hardware.id}), 0);
    auto after = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 1}}, port);
    EXPECT_EQ(after.status, 200) << after.body;
    EXPECT_EQ(stockOf(hardware.id), 100 - 1);
}

// PostgreSQL restart under load (PostgreSQL only: the throwaway cluster of the API test stage,
// PG_THROWAWAY_DIR, is halted and resumed with scripts/pg-throwaway). While the database is down
// every answer is 503 with Retry-After within seconds (never 500, never a hang); once it is back
// the same server process answers normally within seconds (its pool drops the dead connections
// and reconnects), no order exists twice, and a Stripe webhook refused during the outage is
// accepted when Stripe delivers it again.
#include "api/billing_support.h"
#include "api/crash_support.h"
#include "api/fake_stripe.h"
#include "billing/provider/stripe_signature.h"

#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

using namespace testing_support;

namespace {

using PgClock = std::chrono::steady_clock;

int pgThrowaway(const std::string& command) {
    const std::string script = std::string(STOREFRONT_SOURCE_DIR) + "/../scripts/pg-throwaway";
    return std::system((script + " " + command + " >/dev/null").c_str());
}

HttpResult pgDeliver(int port, const nlohmann::json& event) {
    const std::string payload = event.dump();
    return http(port, "POST", "/webhooks/stripe", payload,
                {{"Content-Type", "application/json"},
                 {"Stripe-Signature", storefront::billing::stripeSignatureHeader(kFakeStripeWebhookSecret, payload,
                                                                                 Poco::Timestamp().epochTime())}});
}

struct PgAnswer {
    PgClock::time_point at;
    double seconds = 0;
    int status = 0;
    std::string retryAfter, code;
};

} // namespace

TEST(CrashPostgres, ClusterRestartUnderLoadAnswers503ThenRecoversWithoutARestartOrDuplicates) {
    const char* dir = std::getenv("PG_THROWAWAY_DIR");
    if (!onPostgres() || !dir || !*dir)
        GTEST_SKIP() << "PostgreSQL only: needs STOREFRONT_TEST_DATABASE and PG_THROWAWAY_DIR of a scripts/pg-throwaway "
                        "cluster (the API test stage on PostgreSQL sets both)";
    ChildServer child({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                       {"STRIPE_API_BASE", fakeStripe().apiBase()},
                       {"STRIPE_SECRET_KEY", fakeStripe().secretKey()},
                       {"STRIPE_WEBHOOK_SECRET", kFakeStripeWebhookSecret},
                       {"STRIPE_TIMEOUT_SECONDS", "2"}});
    ASSERT_NO_THROW(child.start());
    const int port = child.port();
    auto hardware = createHardware(1000, 1200);
    std::vector<Session> buyers;
    for (int i = 0; i < 3; ++i) buyers.push_back(newBuyer("pgrestart"));

    // A checkout whose payment event will first arrive while the database is down.
    auto started = startCheckout(buyers[0], {{"productSlug", hardware.slug}, {"quantity", 1}}, port);
    ASSERT_EQ(started.status, 200) << started.body << child.log();
    const std::string paidCheckout = started.json()["checkoutId"], sessionId = started.json()["sessionId"];
    const nlohmann::json event = {
        {"id", unique("evt_pgrestart")},
        {"type", "checkout.session.completed"},
        {"created", Poco::Timestamp().epochTime()},
        {"data", {{"object", {{"id", sessionId}, {"object", "checkout.session"}, {"client_reference_id", paidCheckout},
                              {"mode", "payment"}, {"payment_status", "paid"}, {"amount_total", 1200}, {"currency", "nzd"}}}}}};

    // Load: catalogue reads and new orders, until told to stop.
    std::mutex mutex;
    std::vector<PgAnswer> answers;
    std::vector<std::string> acknowledged;
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int t = 0; t < 4; ++t) {
        clients.emplace_back([&, t] {
            for (int i = 0; !stop; ++i) {
                PgAnswer a;
                const auto start = PgClock::now();
                try {
                    HttpResult r;
                    if (i % 2 == 0) r = http(port, "GET", "/api/v1/products/" + hardware.slug);
                    else r = startCheckout(buyers[static_cast<std::size_t>(t) % buyers.size()], {{"productSlug", hardware.slug}, {"quantity", 1}}, port);
                    a.status = r.status;
                    a.retryAfter = r.header("retry-after");
                    if (r.status >= 400) a.code = r.json().value("code", "");
                    if (i % 2 == 1 && r.status == 200) {
                        std::lock_guard lock(mutex);
                        acknowledged.push_back(r.json()["checkoutId"]);
                    }
                } catch (const std::exception& e) {
                    a.code = std::string("no answer: ") + e.what();
                }
                a.at = PgClock::now();
                a.seconds = std::chrono::duration<double>(a.at - start).count();
                {
                    std::lock_guard lock(mutex);
                    answers.push_back(a);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
    }
    auto finish = [&] {
        stop = true;
        for (auto& c : clients) c.join();
        clients.clear();
    };

    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    const auto halting = PgClock::now();
    if (pgThrowaway("halt '" + std::string(dir) + "'") != 0) {
        finish();
        FAIL() << "could not halt the cluster";
    }
    const auto halted = PgClock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));

    // The payment event during the outage: refused with 503, so Stripe will deliver it again.
    auto refused = pgDeliver(port, event);
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_FALSE(refused.header("retry-after").empty());
    auto health = http(port, "GET", "/healthz");
    EXPECT_EQ(health.status, 503);

    const auto resuming = PgClock::now();
    const bool resumed = pgThrowaway("resume '" + std::string(dir) + "'") == 0;
    const auto back = PgClock::now();
    // Time to recovery: from the database accepting connections again to this server's first
    // normal answer of a database read.
    double recovery = -1;
    while (resumed && PgClock::now() - back < std::chrono::seconds(30)) {
        try {
            if (http(port, "GET", "/api/v1/products/" + hardware.slug).status == 200) {
                recovery = std::chrono::duration<double>(PgClock::now() - back).count();
                break;
            }
        } catch (const std::exception&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    finish();
    ASSERT_TRUE(resumed) << "could not resume the cluster: the rest of the suite will fail";
    ASSERT_GE(recovery, 0) << "no normal answer within 30 s of the database's return\n" << child.log();
    EXPECT_LT(recovery, 5.0);
    EXPECT_TRUE(child.running()) << "the server restarted or died";

    // Every answer came within seconds: 200 before and after, 503 with Retry-After in between.
    int ok = 0, unavailable = 0, bad = 0;
    double slowest = 0;
    const auto settled = back + std::chrono::milliseconds(static_cast<int>(recovery * 1000) + 500);
    for (const auto& a : answers) {
        slowest = std::max(slowest, a.seconds);
        if (a.status == 200) ++ok;
        else if (a.status == 503 && !a.retryAfter.empty()) ++unavailable;
        else {
            ++bad;
            ADD_FAILURE() << "answered " << a.status << " " << a.code;
        }
        if (a.at < halting) {
            EXPECT_EQ(a.status, 200) << "before the outage: " << a.code;
        }
        if (a.at - std::chrono::milliseconds(static_cast<int>(a.seconds * 1000)) > settled) {
            EXPECT_EQ(a.status, 200) << "after recovery: " << a.code;
        }
    }
    EXPECT_GT(unavailable, 0);
    EXPECT_LT(slowest, 5.0);

    // Stripe delivers the event again: accepted now, applied once; a further copy changes nothing.
    auto redelivered = pgDeliver(port, event);
    EXPECT_EQ(redelivered.status, 200) << redelivered.body;
    EXPECT_EQ(orderStatusOfCheckout(paidCheckout), "paid");
    EXPECT_EQ(pgDeliver(port, event).status, 200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_events WHERE event_id = ?", {event["id"].get<std::string>()}), 1);

    // No order twice: each checkout has its own order, every acknowledged one is there, and the
    // stock balances.
    for (const auto& id : acknowledged)
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions c JOIN orders o ON o.id = c.order_id WHERE c.id = ?", {id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM (SELECT order_id FROM checkout_sessions WHERE product_id = ? GROUP BY order_id "
                        "HAVING COUNT(*) > 1) d", {hardware.id}), 0);
    const auto held = countRows("SELECT COALESCE(SUM(stock_reserved), 0) FROM checkout_sessions WHERE product_id = ? "
                                "AND stock_state IN ('reserved', 'settled')", {hardware.id});
    EXPECT_EQ(stockOf(hardware.id) + held, 1000);

    std::cout << "[ figures  ] PostgreSQL halted in " << std::chrono::duration<double>(halted - halting).count()
              << " s, down " << std::chrono::duration<double>(back - halted).count() << " s (resume took "
              << std::chrono::duration<double>(back - resuming).count() << " s); " << answers.size() << " answers: " << ok
              << " 200, " << unavailable << " 503 with Retry-After, " << bad << " other; slowest " << slowest
              << " s; time to recovery after the database was back: " << recovery << " s; " << acknowledged.size()
              << " orders acknowledged, none twice; the webhook refused during the outage was applied on re-delivery"
              << std::endl;
    if (HasFailure()) std::cout << child.log() << std::endl;
}

// SMTP delivery with a deadline on every step: a relay that accepts the connection and never
// answers the TLS handshake (implicit TLS, or after STARTTLS) fails the attempt within the
// timeout, and the mail stays queued with its retry scheduled (backoff doubling); once a relay
// answers, it goes out. Runs the real transport and outbox on a database of its own.
#include "api/harness.h"

#include "db/migrations.h"
#include "db/query.h"
#include "mail/outbox.h"
#include "mail/transport.h"

#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

using namespace testing_support;
namespace mail = storefront::mail;
namespace db = storefront::db;

namespace {

// Accepts connections and never speaks TLS. With `smtpGreeting` it plays an SMTP relay up to
// "220 go ahead" after STARTTLS, then goes silent too.
class SilentTlsRelay {
public:
    explicit SilentTlsRelay(bool smtpGreeting) : socket_(Poco::Net::SocketAddress("127.0.0.1", 0)), greeting_(smtpGreeting) {
        thread_ = std::thread([this] { run(); });
    }
    ~SilentTlsRelay() {
        stop_ = true;
        thread_.join();
    }
    int port() const { return socket_.address().port(); }
    int accepted() const { return accepted_; }

private:
    void run() {
        std::vector<Poco::Net::StreamSocket> held;
        while (!stop_) {
            if (!socket_.poll(Poco::Timespan(0, 100000), Poco::Net::Socket::SELECT_READ)) continue;
            auto client = socket_.acceptConnection();
            ++accepted_;
            if (greeting_) {
                client.setReceiveTimeout(Poco::Timespan(5, 0));
                auto say = [&](const std::string& text) { client.sendBytes(text.data(), static_cast<int>(text.size())); };
                auto hear = [&] {
                    std::string line;
                    char c = 0;
                    while (client.receiveBytes(&c, 1) == 1 && c != '\n') line += c;
                    return line;
                };
                say("220 silent.test ESMTP\r\n");
                hear(); // EHLO
                say("250-silent.test\r\n250 STARTTLS\r\n");
                hear(); // STARTTLS
                say("220 go ahead\r\n");
            }
            held.push_back(client); // and never another byte
        }
    }

    Poco::Net::ServerSocket socket_;
    bool greeting_;
    std::atomic<bool> stop_{false};
    std::atomic<int> accepted_{0};
    std::thread thread_;
};

struct MailQueue {
    std::unique_ptr<db::Database> database;
    std::string id;

    MailQueue() {
        database = db::Database::open(::testing::TempDir() + "/mail-" + db::newId() + ".db");
        db::migrate(*database);
    }
    void enqueue(mail::Outbox& outbox) {
        database->write([&](db::Tx& tx) {
            id = outbox.enqueue(tx, {"test", "customer@example.nz", "", "Your order", "Thanks for your order."}, std::nullopt);
        });
    }
    std::string text(const std::string& column) {
        auto s = database->session();
        auto rows = db::query(s, "SELECT CAST(" + column + " AS TEXT) AS v FROM mail_outbox WHERE id = ?").bind(id).all(
            [](const db::Row& r) { return r.optText("v").value_or(""); });
        return rows.empty() ? "" : rows.front();
    }
    void dueNow() {
        database->write([&](db::Tx& tx) {
            tx.query("UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ?").bind(testClock().timestampAfter(-1), id).run();
        });
    }
};

// POCO's "Timeout", or common/tls_socket's own when POCO returned as if the handshake had finished.
bool isTimeoutError(const std::string& error) {
    return error.find("Timeout") != std::string::npos || error.find("TLS handshake did not finish in time") != std::string::npos;
}

double secondsTaken(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void expectQueuedForRetry(MailQueue& queue, int attempts) {
    EXPECT_EQ(queue.text("status"), "pending");
    EXPECT_EQ(queue.text("attempts"), std::to_string(attempts));
    EXPECT_FALSE(queue.text("last_error").empty());
    EXPECT_GT(db::epochFromTimestamp(queue.text("next_attempt_at")), db::epochFromTimestamp(testClock().nowTimestamp()));
}

} // namespace

TEST(MailTransport, AnImplicitTlsRelayThatNeverAnswersTheHandshakeFailsWithinTheTimeoutAndTheMailStaysQueued) {
    SilentTlsRelay relay(false);
    mail::SmtpTransport transport("127.0.0.1", relay.port(), "", "", "tls", 2);
    MailQueue queue;
    mail::Outbox outbox(*queue.database, transport, "Shop <shop@example.nz>", 60, 10);
    queue.enqueue(outbox);
    int sent = -1;
    const double took = secondsTaken([&] { sent = outbox.deliverDue(); });
    EXPECT_EQ(sent, 0);
    EXPECT_EQ(relay.accepted(), 1);
    EXPECT_GE(took, 1.5) << "it failed before the handshake even waited: " << queue.text("last_error");
    EXPECT_LT(took, 5.0) << "the handshake must not outlast the timeout (2 s)";
    expectQueuedForRetry(queue, 1);
    EXPECT_TRUE(isTimeoutError(queue.text("last_error"))) << queue.text("last_error");
    std::cout << "implicit TLS, silent relay: attempt failed after " << took << " s (timeout 2 s): " << queue.text("last_error") << "\n";
}

TEST(MailTransport, AStarttlsRelayThatGoesSilentAfterStarttlsFailsWithinTheTimeoutAndTheMailStaysQueued) {
    SilentTlsRelay relay(true);
    mail::SmtpTransport transport("127.0.0.1", relay.port(), "", "", "starttls", 2);
    MailQueue queue;
    mail::Outbox outbox(*queue.database, transport, "Shop <shop@example.nz>", 60, 10);
    queue.enqueue(outbox);
    const double took = secondsTaken([&] { outbox.deliverDue(); });
    EXPECT_GE(took, 1.5) << queue.text("last_error");
    EXPECT_LT(took, 5.0);
    expectQueuedForRetry(queue, 1);
    EXPECT_TRUE(isTimeoutError(queue.text("last_error"))) << queue.text("last_error");
    std::cout << "STARTTLS, silent after 220: attempt failed after " << took << " s (timeout 2 s)\n";
}

TEST(MailTransport, ADownRelayLosesNoMailRetriesWithDoublingDelaysThenDelivers) {
    int closedPort = 0;
    {
        Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
        closedPort = s.address().port();
    } // nothing listens there now: connection refused
    mail::SmtpTransport down("127.0.0.1", closedPort, "", "", "none", 2);
    MailQueue queue;
    mail::Outbox outbox(*queue.database, down, "Shop <shop@example.nz>", 60, 10);
    queue.enqueue(outbox);
    std::vector<long long> delays;
    for (int attempt = 1; attempt <= 4; ++attempt) {
        queue.dueNow();
        EXPECT_EQ(outbox.deliverDue(), 0);
        expectQueuedForRetry(queue, attempt);
        delays.push_back(db::epochFromTimestamp(queue.text("next_attempt_at")) - db::epochFromTimestamp(testClock().nowTimestamp()));
    }
    ASSERT_EQ(delays.size(), 4u);
    for (std::size_t i = 0; i < delays.size(); ++i) EXPECT_NEAR(delays[i], 60 << i, 2) << "attempt " << i + 1;
    // The relay is back: the same row goes out on its next attempt.
    mail::SmtpTransport up("127.0.0.1", env().smtp->port(), "", "", "none", 2);
    mail::Outbox recovered(*queue.database, up, "Shop <shop@example.nz>", 60, 10);
    queue.dueNow();
    EXPECT_EQ(recovered.deliverDue(), 1);
    EXPECT_EQ(queue.text("status"), "sent");
    EXPECT_EQ(queue.text("attempts"), "5");
    // Its Message-ID comes from the row, not the attempt: every attempt of it carried the same one.
    std::string rowKey = queue.id;
    rowKey.erase(std::remove(rowKey.begin(), rowKey.end(), '-'), rowKey.end());
    const std::string messageId = "Message-ID: <" + rowKey + "@example.nz>\n"; // the fake relay keeps lines LF-ended
    const auto delivered = env().smtp->messages();
    EXPECT_EQ(std::count_if(delivered.begin(), delivered.end(),
                            [&](const std::string& m) { return m.find(messageId) != std::string::npos; }),
              1)
        << messageId;
}

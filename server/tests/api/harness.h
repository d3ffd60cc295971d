#pragma once
// API-test harness: one real Storefront server per test binary, in-process on a free loopback
// port, over a fresh SQLite file or the PostgreSQL database named by STOREFRONT_TEST_DATABASE;
// a small HTTP client; a fake SMTP relay that records (or refuses) mail.
#include "app/storefront.h"
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace testing_support {

struct HttpResult {
    int status = 0;
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;
    nlohmann::json json() const { return nlohmann::json::parse(body); }
    std::string header(const std::string& lowerName) const {
        auto it = headers.find(lowerName);
        return it == headers.end() ? std::string() : it->second;
    }
};

using Headers = std::map<std::string, std::string>;

HttpResult http(int port, const std::string& method, const std::string& path, const std::string& body = "",
                const Headers& headers = {});
HttpResult getJson(const std::string& path, const Headers& headers = {});
HttpResult get(const std::string& path, const Headers& headers = {});
HttpResult postJson(const std::string& path, const nlohmann::json& body, const Headers& headers = {});
HttpResult putJson(const std::string& path, const nlohmann::json& body, const Headers& headers = {});
HttpResult patchJson(const std::string& path, const nlohmann::json& body, const Headers& headers = {});
// DELETE, with a JSON body unless `body` is null.
HttpResult del(const std::string& path, const Headers& headers = {}, const nlohmann::json& body = nullptr);
// Raw bytes on a new connection (then the sending side shut when `halfClose`); reads the answer
// until the server closes or `seconds` pass. Status 0 when no HTTP answer arrived (body: what did).
// For requests an HTTP client would not send (malformed request lines, oversized headers).
HttpResult rawHttp(int port, const std::string& bytes, bool halfClose = false, int seconds = 10);
// Parses one HTTP answer as rawHttp reads it (status 0 when `text` is not one).
HttpResult parseRawAnswer(const std::string& text);
// Any method with a JSON body, to any of the servers (see serverWith).
HttpResult sendJson(int port, const std::string& method, const std::string& path, const nlohmann::json& body,
                    const Headers& headers = {});

// One run of the storefront executable as a shell command (`storefront users|keys|jobs ...`):
// `environment` is the whole environment; standard input is `input`, then closed (never a
// terminal); STOREFRONT_ENV is development unless `environment` sets it. Returns when the process
// has exited, with everything it printed.
struct CommandRun {
    int exitCode = -1;
    std::string out, err;
};
CommandRun runStorefront(const std::vector<std::string>& args, const std::map<std::string, std::string>& environment,
                         const std::string& input = "");

// The fake relay: accepts SMTP, records each message's raw DATA; can be told to refuse.
class FakeSmtp {
public:
    FakeSmtp();
    ~FakeSmtp();
    int port() const;
    void setRefusing(bool refusing);
    std::vector<std::string> messages();

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// The clock of every server the harness starts and of env().db: the machine's clock until a test
// moves it (testClock().advance(std::chrono::hours(24))). A test that moves it puts it back with a
// ClockShift, so the next test starts on real time.
storefront::ShiftedClock& testClock();

// Moves testClock() forward for as long as it lives, then back.
class ClockShift {
public:
    ClockShift() = default;
    explicit ClockShift(std::chrono::milliseconds by) { advance(by); }
    ~ClockShift() { testClock().advance(-moved_); }
    ClockShift(const ClockShift&) = delete;
    ClockShift& operator=(const ClockShift&) = delete;
    void advance(std::chrono::milliseconds by) {
        testClock().advance(by);
        moved_ += by;
    }

private:
    std::chrono::milliseconds moved_{0};
};

// A clock read from a function of Unix milliseconds: a test's own timeline for one job it runs.
class MillisClock final : public storefront::Clock {
public:
    explicit MillisClock(std::function<std::int64_t()> millis) : millis_(std::move(millis)) {}
    TimePoint now() const override { return TimePoint(std::chrono::milliseconds(millis_())); }

private:
    std::function<std::int64_t()> millis_;
};

struct Env {
    std::unique_ptr<storefront::app::Storefront> server;
    std::unique_ptr<storefront::db::Database> db; // direct access for arranging and checking rows
    std::unique_ptr<FakeSmtp> smtp;
    std::string webDir;
    int port = 0;
};

// The TOTP key every test server (and command run on the test database) uses.
// server/tests/auth-js/server.mjs uses the same key: on PostgreSQL both suites share one database.
inline const std::string kTotpKey = "api-test-totp-key-0123456789abcdefghijklmnop";

// A server in this process with exactly these settings (by environment variable name), started;
// it stops when the pointer goes.
std::unique_ptr<storefront::app::Storefront> startServer(const std::map<std::string, std::string>& vars);

// The shared environment, started on first use and stopped at exit. Its server runs with the
// production defaults for accounts (email confirmation on, two-factor required for admins) except
// a tiny argon2id cost.
Env& env();

// The port of a second server on the same database and mail relay as env(), with some settings
// changed (e.g. {{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}}): started on first use, one per set of
// overrides, stopped at exit.
int serverWith(const std::map<std::string, std::string>& overrides);

// The port of a second server like env() in every setting but its data folder (every server
// started here gets a fresh one): a second server behind a load balancer, sharing only the
// database and the TOTP key with env(). Started on first use, stopped at exit.
int peerServer();

// Waits until every server has been up a few seconds, so that its start-up housekeeping (pruning
// expired sessions and links) cannot race rows a test is about to backdate.
void settleServers();

// A unique string for test data, so tests never depend on each other's rows.
std::string unique(const std::string& prefix);

// Polls `condition` for up to `seconds`.
bool eventually(const std::function<bool()>& condition, double seconds = 10);

} // namespace testing_support

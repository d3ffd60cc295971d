#pragma once
// Helpers for the crash, shutdown, restart and overload tests: the real storefront executable as a
// child process on the API tests' database (SQLite file or PostgreSQL), which a test may kill.
#include "api/harness.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace testing_support {

// One storefront process on the shared test database, with the harness's settings (same TOTP key,
// public URL, trusted proxy, tiny argon2 cost) except: mail goes to the outbox, log level warning,
// its own free port and data directory. `overrides` change any STOREFRONT_* setting.
class ChildServer {
public:
    explicit ChildServer(std::map<std::string, std::string> overrides = {});
    ~ChildServer(); // SIGKILL if still running; removes its data directory
    ChildServer(const ChildServer&) = delete;
    ChildServer& operator=(const ChildServer&) = delete;

    // Launches the process and waits (up to 30 s) until GET /healthz answers 200.
    void start();
    void signal(int sig);
    // The exit status once the process has ended, waiting at most `limit`; -1 if still running.
    int waitFor(std::chrono::milliseconds limit);
    bool running();
    int port() const { return port_; }
    std::string log() const; // everything it wrote to stdout and stderr
    int pid() const;

private:
    struct Process;
    std::map<std::string, std::string> vars_;
    std::string dir_, logPath_;
    int port_ = 0;
    std::unique_ptr<Process> process_;
};

// A free loopback TCP port.
int crashFreePort();

// The seed of a randomised test: STOREFRONT_CRASH_SEED when set, else a fresh one. Printed, so a
// failure replays with the same choices.
std::uint32_t crashSeed(const std::string& testName);

// An integer setting of a test from the environment (e.g. STOREFRONT_CRASH_ROUNDS), else `fallback`.
int crashSetting(const char* name, int fallback);

// True when the API tests run on PostgreSQL.
bool onPostgres();

} // namespace testing_support

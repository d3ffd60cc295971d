#include "api/crash_support.h"

#include "api/auth_support.h"

#include <Poco/Net/ServerSocket.h>
#include <Poco/Process.h>
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

namespace testing_support {

struct ChildServer::Process {
    explicit Process(Poco::ProcessHandle h) : handle(std::move(h)) {}
    Poco::ProcessHandle handle;
    int status = -1;
    bool ended = false;
};

int crashFreePort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}

bool onPostgres() {
    const char* pg = std::getenv("STOREFRONT_TEST_DATABASE");
    return pg && *pg;
}

std::uint32_t crashSeed(const std::string& testName) {
    std::uint32_t seed;
    if (const char* s = std::getenv("STOREFRONT_CRASH_SEED"); s && *s) seed = static_cast<std::uint32_t>(std::stoul(s));
    else seed = std::random_device{}();
    std::cout << "[ seed     ] " << testName << ": " << seed << " (replay with STOREFRONT_CRASH_SEED=" << seed << ")"
              << std::endl;
    return seed;
}

int crashSetting(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::stoi(v) : fallback;
}

ChildServer::ChildServer(std::map<std::string, std::string> overrides) {
    auto& e = env();
    port_ = crashFreePort();
    dir_ = ::testing::TempDir() + "/child-" + storefront::db::newId();
    std::filesystem::create_directories(dir_);
    logPath_ = dir_ + "/server.log";
    vars_ = {
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", std::to_string(port_)},
        {"STOREFRONT_PUBLIC_URL", kPublicUrl},
        {"STOREFRONT_DATA_DIR", dir_},
        {"STOREFRONT_DATABASE", e.server->config().database},
        {"STOREFRONT_WEB_DIR", e.webDir},
        {"STOREFRONT_TRUSTED_PROXIES", "127.0.0.1"},
        {"STOREFRONT_MAIL_TRANSPORT", "outbox"},
        {"STOREFRONT_LOG_LEVEL", "warning"},
        {"STOREFRONT_CATALOG_CACHE_MS", "0"},
        {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
        {"STOREFRONT_CONTACT_LIMIT", "100000"},
        {"STOREFRONT_TOTP_KEY", kTotpKey},
        // Not the WireWrite inactivity job: a child killed while its start-up run holds the job's
        // lease on SQLite leaves it held for 15 minutes, and the job tests that follow find the job
        // "running on another server" (seen under ASan, where that run is slow enough to be hit).
        {"STOREFRONT_WIREWRITE_INACTIVITY_ENABLED", "false"},
    };
    for (const auto& [k, v] : overrides) vars_[k] = v;
}

ChildServer::~ChildServer() {
    if (running()) {
        signal(SIGKILL);
        waitFor(std::chrono::seconds(10));
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void ChildServer::start() {
    Poco::Process::Env environment(vars_.begin(), vars_.end());
    // Through sh, only to send both streams to the log file; exec keeps the pid the server's.
    auto handle = Poco::Process::launch("/bin/sh", {"-c", "exec \"$0\" >>\"$1\" 2>&1", STOREFRONT_BINARY, logPath_},
                                        ::testing::TempDir(), nullptr, nullptr, nullptr, environment);
    process_ = std::make_unique<Process>(std::move(handle));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
        if (!running()) throw std::runtime_error("the storefront process ended at start-up:\n" + log());
        try {
            if (http(port_, "GET", "/healthz").status == 200) return;
        } catch (const std::exception&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("the storefront process did not answer /healthz within 30 s:\n" + log());
}

void ChildServer::signal(int sig) {
    if (process_ && !process_->ended) ::kill(process_->handle.id(), sig);
}

int ChildServer::waitFor(std::chrono::milliseconds limit) {
    if (!process_) return -1;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!process_->ended) {
        int status = process_->handle.tryWait();
        if (status != -1) {
            process_->ended = true;
            process_->status = status;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return process_->status;
}

bool ChildServer::running() {
    if (!process_) return false;
    return waitFor(std::chrono::milliseconds(0)) == -1 && !process_->ended;
}

int ChildServer::pid() const { return process_ ? process_->handle.id() : 0; }

std::string ChildServer::log() const {
    std::ifstream in(logPath_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace testing_support

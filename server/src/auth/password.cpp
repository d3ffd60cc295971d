#include "auth/password.h"

#include "auth/secrets.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/String.h>
#include <Poco/UTF8String.h>

#include <pthread.h>
#include <sched.h>
#include <sodium.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace storefront::auth {

namespace {

// Hashing workers yield the processor to request threads while both want it: SCHED_IDLE, so a
// request thread that wakes up preempts a hash at once (under nice 19 alone the scheduler may let
// the hash finish its slice first, which showed as the catalogue's p99 during a sign-in flood);
// nice 19 where SCHED_IDLE is refused.
constexpr int kWorkerNice = 19;

void lowerHashingWorkerPriority(bool idlePolicy) {
    // Linux applies nice and the policy per thread. Neither needs a privilege to lower.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kWorkerNice);
    if (!idlePolicy) return;
    sched_param idle{};
    idle.sched_priority = 0;
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
}

const std::set<std::string, std::less<>>& commonPasswords() {
    static const std::set<std::string, std::less<>> words = [] {
        std::set<std::string, std::less<>> out;
        std::string_view text = commonPasswordList();
        while (!text.empty()) {
            auto end = text.find('\n');
            auto line = std::string(text.substr(0, end));
            text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
            Poco::trimInPlace(line);
            if (line.empty() || line.starts_with('#')) continue;
            out.insert(Poco::UTF8::toLower(line));
        }
        return out;
    }();
    return words;
}


} // namespace

bool isCommonPassword(std::string_view password) {
    return commonPasswords().contains(Poco::UTF8::toLower(std::string(password)));
}

std::vector<std::string> weakPasswordReasons(std::string_view password, int minLength) {
    std::vector<std::string> reasons;
    if (common::codePoints(password) < static_cast<std::size_t>(minLength)) reasons.emplace_back("length");
    if (isCommonPassword(password)) reasons.emplace_back("pwned");
    return reasons;
}

std::string weakPasswordMessage(const std::vector<std::string>& reasons, int minLength) {
    std::string message;
    for (const auto& reason : reasons) {
        if (!message.empty()) message += " ";
        if (reason == "length")
            message += "Password should be at least " + std::to_string(minLength) + " characters.";
        else if (reason == "pwned")
            message += "Password is known to be weak and easy to guess, please choose a different one.";
    }
    return message;
}

PasswordHasher::PasswordHasher(HashCost cost, int concurrency, int queue, bool idlePriority)
    : cost_(cost), idlePriority_(idlePriority) {
    ensureSodium();
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    concurrency_ = concurrency > 0 ? concurrency : cores;
    queue_ = queue > 0 ? queue : concurrency_ * 4;
    for (int i = 0; i < concurrency_; ++i) workers_.emplace_back([this] { work(); });
    dummy_ = hash(randomToken(16));
}

PasswordHasher::~PasswordHasher() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    ready_.notify_all();
    for (auto& t : workers_) t.join();
}

void PasswordHasher::work() {
    lowerHashingWorkerPriority(idlePriority_);
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) return; // stopping
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job();
    }
}

void PasswordHasher::runOnWorker(const std::function<void()>& job) {
    std::mutex doneMutex;
    std::condition_variable doneSignal;
    bool done = false;
    {
        std::lock_guard lock(mutex_);
        // Waiting jobs beyond the queue: refuse now rather than make the caller wait seconds.
        if (static_cast<int>(jobs_.size()) >= queue_) {
            refusals_.fetch_add(1, std::memory_order_relaxed);
            http::ApiError e(http::ErrorKind::RateLimited, "over_request_rate_limit",
                             "Too many sign-in requests at once. Please try again in a moment.");
            e.retryAfterSeconds = 1;
            throw e;
        }
        jobs_.emplace_back([&] {
            job();
            std::lock_guard doneLock(doneMutex);
            done = true;
            doneSignal.notify_one();
        });
    }
    ready_.notify_one();
    std::unique_lock lock(doneMutex);
    doneSignal.wait(lock, [&] { return done; });
}

int PasswordHasher::queueDepth() {
    std::lock_guard lock(mutex_);
    return static_cast<int>(jobs_.size());
}

std::string PasswordHasher::hash(std::string_view password) {
    char out[crypto_pwhash_STRBYTES];
    int rc = 0;
    runOnWorker([&] {
        rc = crypto_pwhash_str_alg(out, password.data(), password.size(), static_cast<unsigned long long>(cost_.opsLimit),
                                   static_cast<std::size_t>(cost_.memoryKib) * 1024u, crypto_pwhash_ALG_ARGON2ID13);
    });
    if (rc != 0) throw std::runtime_error("password hashing ran out of memory");
    return out;
}

bool PasswordHasher::verify(const std::string& stored, std::string_view password) {
    int rc = -1;
    runOnWorker([&] { rc = crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()); });
    return rc == 0;
}

void PasswordHasher::verifyDummy(std::string_view password) { (void)verify(dummy_, password); }

bool PasswordHasher::needsRehash(const std::string& stored) const {
    return crypto_pwhash_str_needs_rehash(stored.c_str(), static_cast<unsigned long long>(cost_.opsLimit),
                                          static_cast<std::size_t>(cost_.memoryKib) * 1024u) != 0;
}

} // namespace storefront::auth

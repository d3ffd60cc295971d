#pragma once
// Passwords: the strength rule (minimum length, common-password list) and argon2id hashing through
// libsodium. An argon2id hash at libsodium's INTERACTIVE level takes ~95 ms and 64 MiB, so hashing
// runs on a fixed set of worker threads (one per core by default) with a bounded queue: past the
// queue callers get 429, so a sign-in flood cannot exhaust memory. The workers run at the lowest CPU
// priority (SCHED_IDLE, else nice 19), so while they are busy the rest of the server (the catalogue, checkout) still
// gets the processor first; when nothing else runs, hashing has all of it.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace storefront::auth {

inline constexpr std::size_t kMaxPasswordBytes = 256;

// The common-password list compiled in from server/data/common-passwords.txt.
std::string_view commonPasswordList();
bool isCommonPassword(std::string_view password);

// GoTrue's weak-password reasons: "length" (shorter than minLength characters) and "pwned" (on the
// common-password list). Empty when the password is acceptable.
std::vector<std::string> weakPasswordReasons(std::string_view password, int minLength);
// The message for those reasons, e.g. "Password should be at least 6 characters."
std::string weakPasswordMessage(const std::vector<std::string>& reasons, int minLength);

struct HashCost {
    int opsLimit = 2;           // argon2id passes
    int memoryKib = 64 * 1024;  // argon2id memory
};

class PasswordHasher {
public:
    // concurrency 0: one hash per core; queue 0: four waiting per worker. idlePriority: the workers
    // run under SCHED_IDLE (and nice 19), else nice 19 only.
    PasswordHasher(HashCost cost, int concurrency, int queue, bool idlePriority = true);
    ~PasswordHasher();
    PasswordHasher(const PasswordHasher&) = delete;
    PasswordHasher& operator=(const PasswordHasher&) = delete;

    // argon2id string with its parameters embedded ($argon2id$v=19$m=...). Throws ApiError 429
    // (over_request_rate_limit) when the gate is full.
    std::string hash(std::string_view password);
    // True when `password` matches `stored`. Unknown emails call verifyDummy() so both cost the same.
    bool verify(const std::string& stored, std::string_view password);
    void verifyDummy(std::string_view password);
    // True when `stored` was made with other parameters than the current cost (rehash on sign-in).
    bool needsRehash(const std::string& stored) const;

    int concurrency() const { return concurrency_; }
    // For /metrics: hashes waiting for a worker now, and the requests refused (429) because the
    // queue was full.
    int queueDepth();
    std::uint64_t refusals() const { return refusals_.load(std::memory_order_relaxed); }

    // Runs `job` on a hashing worker and waits for it; 429 when the queue is full. hash() and
    // verify() go through it; public so a test can keep a worker busy and fill the queue.
    void runOnWorker(const std::function<void()>& job);

private:
    void work();

    HashCost cost_;
    int concurrency_;
    int queue_;
    bool idlePriority_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
    std::string dummy_;
    std::atomic<std::uint64_t> refusals_{0};
};

} // namespace storefront::auth

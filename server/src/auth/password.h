#pragma once
// Passwords: the strength rule (minimum length, common-password list) and argon2id hashing through
// libsodium behind a gate that caps concurrent hashes. An argon2id hash at libsodium's INTERACTIVE
// level takes ~95 ms and 64 MiB, so unbounded concurrency would let a sign-in flood starve the rest
// of the server or exhaust memory: past the cap callers wait briefly in a bounded queue, and past the
// queue they get 429.
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
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
    // concurrency 0: one hash per core; queue 0: four waiting per slot.
    PasswordHasher(HashCost cost, int concurrency, int queue);

    // argon2id string with its parameters embedded ($argon2id$v=19$m=...). Throws ApiError 429
    // (over_request_rate_limit) when the gate is full.
    std::string hash(std::string_view password);
    // True when `password` matches `stored`. Unknown emails call verifyDummy() so both cost the same.
    bool verify(const std::string& stored, std::string_view password);
    void verifyDummy(std::string_view password);
    // True when `stored` was made with other parameters than the current cost (rehash on sign-in).
    bool needsRehash(const std::string& stored) const;

    int concurrency() const { return concurrency_; }

private:
    class Slot;
    HashCost cost_;
    int concurrency_;
    int queue_;
    std::mutex mutex_;
    std::condition_variable freed_;
    int running_ = 0;
    int waiting_ = 0;
    std::string dummy_;
};

} // namespace storefront::auth

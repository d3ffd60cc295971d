#include "auth/password.h"

#include "auth/secrets.h"
#include "http/api_error.h"

#include <Poco/String.h>
#include <Poco/UTF8String.h>

#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace storefront::auth {

namespace {

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

std::size_t codePoints(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

constexpr int kQueueWaitMs = 5000;

} // namespace

bool isCommonPassword(std::string_view password) {
    return commonPasswords().contains(Poco::UTF8::toLower(std::string(password)));
}

std::vector<std::string> weakPasswordReasons(std::string_view password, int minLength) {
    std::vector<std::string> reasons;
    if (codePoints(password) < static_cast<std::size_t>(minLength)) reasons.emplace_back("length");
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

// Holds one hashing slot for its lifetime.
class PasswordHasher::Slot {
public:
    explicit Slot(PasswordHasher& h) : h_(h) {
        std::unique_lock lock(h_.mutex_);
        if (h_.running_ >= h_.concurrency_) {
            if (h_.waiting_ >= h_.queue_) throw busy();
            ++h_.waiting_;
            const bool got = h_.freed_.wait_for(lock, std::chrono::milliseconds(kQueueWaitMs),
                                                [this] { return h_.running_ < h_.concurrency_; });
            --h_.waiting_;
            if (!got) throw busy();
        }
        ++h_.running_;
    }
    ~Slot() {
        {
            std::lock_guard lock(h_.mutex_);
            --h_.running_;
        }
        h_.freed_.notify_one();
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

private:
    static http::ApiError busy() {
        http::ApiError e(http::ErrorKind::RateLimited, "over_request_rate_limit",
                         "Too many sign-in requests at once. Please try again in a moment.");
        e.retryAfterSeconds = 1;
        return e;
    }
    PasswordHasher& h_;
};

PasswordHasher::PasswordHasher(HashCost cost, int concurrency, int queue) : cost_(cost) {
    ensureSodium();
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    concurrency_ = concurrency > 0 ? concurrency : cores;
    queue_ = queue > 0 ? queue : concurrency_ * 4;
    dummy_ = hash(randomToken(16));
}

std::string PasswordHasher::hash(std::string_view password) {
    Slot slot(*this);
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), static_cast<unsigned long long>(cost_.opsLimit),
                              static_cast<std::size_t>(cost_.memoryKib) * 1024u, crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw std::runtime_error("password hashing ran out of memory");
    return out;
}

bool PasswordHasher::verify(const std::string& stored, std::string_view password) {
    Slot slot(*this);
    return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

void PasswordHasher::verifyDummy(std::string_view password) { (void)verify(dummy_, password); }

bool PasswordHasher::needsRehash(const std::string& stored) const {
    return crypto_pwhash_str_needs_rehash(stored.c_str(), static_cast<unsigned long long>(cost_.opsLimit),
                                          static_cast<std::size_t>(cost_.memoryKib) * 1024u) != 0;
}

} // namespace storefront::auth

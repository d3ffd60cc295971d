#include "http/request_id.h"

#include <sys/random.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

namespace storefront::http {

namespace {

// splitmix64 over a per-thread state seeded from the kernel: fast, well mixed, and not
// guessable from another thread's ids.
std::uint64_t nextRandom() {
    thread_local std::uint64_t state = [] {
        std::uint64_t seed = 0;
        if (::getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
            seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                   std::hash<std::thread::id>{}(std::this_thread::get_id());
        return seed;
    }();
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

bool isPlainRequestId(std::string_view id) {
    if (id.empty() || id.size() > 64) return false;
    for (const char c : id) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                           c == '_' || c == '-';
        if (!plain) return false;
    }
    return true;
}

std::string newRequestId() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id(32, '0');
    for (int half = 0; half < 2; ++half) {
        std::uint64_t bits = nextRandom();
        for (int i = 0; i < 16; ++i, bits >>= 4) id[static_cast<std::size_t>(half * 16 + i)] = kHex[bits & 0xF];
    }
    return id;
}

std::string requestIdFor(std::string_view incoming, bool peerIsTrustedProxy) {
    if (peerIsTrustedProxy && isPlainRequestId(incoming)) return std::string(incoming);
    return newRequestId();
}

} // namespace storefront::http

#pragma once
// How the server asks the C library's allocator (glibc malloc) to keep its footprint near what is
// actually in use. Under a long mixed load the heap of a server with a dozen request threads is
// mostly free space: SQLite's page caches of pooled connections that move between threads, the
// catalogue re-rendered after every stock change and kept until the next one, and bodies of a few
// kilobytes copied per request leave free holes scattered through every thread's malloc arena.
// glibc gives memory back to the system only from the top of an arena, so those holes stay in the
// resident set and it grows for as long as the database does (docs/reliability.md, "Overload and
// soak": 39 MB held by malloc against 12 MB in use after 40 s).
//
// - limitMallocArenas(n): at most n arenas (mallopt M_ARENA_MAX); call it at start-up, before
//   the request threads exist. Fewer arenas, fewer places for holes; more lock contention.
// - MemoryTrimmer: run from the background jobs; at most once per interval it calls
//   malloc_trim(0), which hands the free pages inside every arena back to the system (they stay
//   mapped and are faulted in again, zeroed, when malloc reuses them).
// On a C library other than glibc both do nothing and say so (false).
#include <chrono>
#include <cstdint>
#include <functional>

namespace storefront::common {

// mallopt(M_ARENA_MAX, max); false when not supported or refused.
bool limitMallocArenas(int max);

// malloc_trim(0): true when some memory went back to the system.
bool releaseFreeMemory();

class MemoryTrimmer {
public:
    using Clock = std::function<std::int64_t()>; // milliseconds, monotonic
    using Release = std::function<bool()>;

    // interval <= 0: never trims.
    MemoryTrimmer(std::chrono::seconds interval, Clock clock = steadyMillis, Release release = releaseFreeMemory)
        : intervalMs_(interval.count() * 1000), clock_(std::move(clock)), release_(std::move(release)) {}

    // Trims when `interval` has passed since the last trim (the first call only starts the
    // count); answers whether it trimmed.
    bool operator()();

    static std::int64_t steadyMillis();

private:
    std::int64_t intervalMs_;
    Clock clock_;
    Release release_;
    std::int64_t last_ = 0;
    bool started_ = false;
};

} // namespace storefront::common

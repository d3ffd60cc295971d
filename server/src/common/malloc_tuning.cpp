#include "common/malloc_tuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace storefront::common {

bool limitMallocArenas(int max) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return max > 0 && mallopt(M_ARENA_MAX, max) == 1;
#else
    (void)max;
    return false;
#endif
}

bool releaseFreeMemory() {
#if defined(__GLIBC__)
    return malloc_trim(0) == 1;
#else
    return false;
#endif
}

std::int64_t MemoryTrimmer::steadyMillis() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

bool MemoryTrimmer::operator()() {
    if (intervalMs_ <= 0) return false;
    const auto now = clock_();
    if (!started_) {
        started_ = true;
        last_ = now;
        return false;
    }
    if (now - last_ < intervalMs_) return false;
    last_ = now;
    release_();
    return true;
}

} // namespace storefront::common

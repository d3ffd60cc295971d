#include "common/malloc_tuning.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

using storefront::common::MemoryTrimmer;

TEST(MemoryTrimmer, TrimsAtMostOncePerIntervalCountingFromTheFirstRound) {
    std::int64_t now = 1'000'000;
    int releases = 0;
    MemoryTrimmer trim(std::chrono::seconds(60), [&] { return now; }, [&] { ++releases; return true; });
    EXPECT_FALSE(trim()); // the first round only starts the count
    now += 59'999;
    EXPECT_FALSE(trim());
    EXPECT_EQ(releases, 0);
    now += 1;
    EXPECT_TRUE(trim());
    EXPECT_EQ(releases, 1);
    now += 30'000;
    EXPECT_FALSE(trim());
    now += 30'000;
    EXPECT_TRUE(trim());
    EXPECT_EQ(releases, 2);
}

TEST(MemoryTrimmer, AZeroIntervalNeverTrims) {
    std::int64_t now = 0;
    int releases = 0;
    MemoryTrimmer trim(std::chrono::seconds(0), [&] { return now; }, [&] { ++releases; return true; });
    for (int i = 0; i < 5; ++i) {
        EXPECT_FALSE(trim());
        now += 3'600'000;
    }
    EXPECT_EQ(releases, 0);
}

namespace {

[[maybe_unused]] long residentKiBOfThisProcess() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

} // namespace

// The fragmentation the soak showed, in miniature: many blocks below the mmap threshold, all but
// one in sixteen freed, so the free space is in holes between live blocks and free() alone cannot
// give it back (only the top of the heap is ever trimmed). releaseFreeMemory() must.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(STOREFRONT_SANITIZED_BUILD)
#define STOREFRONT_MALLOC_TUNING_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define STOREFRONT_MALLOC_TUNING_TEST_SANITIZED 1
#endif
#endif

TEST(MallocTuning, ReleaseFreeMemoryHandsBackTheHolesBetweenLiveBlocks) {
#if !defined(__GLIBC__) || defined(STOREFRONT_MALLOC_TUNING_TEST_SANITIZED)
    GTEST_SKIP() << "glibc malloc only (the sanitizers bring their own allocator)";
#else
    constexpr std::size_t kBlock = 16 * 1024;
    constexpr int kBlocks = 2048; // 32 MiB
    std::vector<void*> blocks;
    blocks.reserve(kBlocks);
    storefront::common::releaseFreeMemory(); // start from a trimmed heap
    for (int i = 0; i < kBlocks; ++i) {
        void* p = std::malloc(kBlock);
        ASSERT_NE(p, nullptr);
        std::memset(p, 0x5a, kBlock); // resident
        blocks.push_back(p);
    }
    for (int i = 0; i < kBlocks; ++i) {
        if (i % 16 == 15) continue;
        std::free(blocks[i]);
        blocks[i] = nullptr;
    }
    const long held = residentKiBOfThisProcess();
    storefront::common::releaseFreeMemory();
    const long after = residentKiBOfThisProcess();
    for (void* p : blocks) std::free(p);
    // 30 MiB is free in 15-block holes; at least 20 MiB of it must leave the resident set.
    EXPECT_GT(held - after, 20 * 1024) << "resident " << held << " KiB before the trim, " << after << " KiB after";
#endif
}

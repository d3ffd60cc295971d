// common::FairSemaphore: permits are bounded, waiters are served in the order they came, and
// tryAcquire never jumps the queue.
#include "common/fair_semaphore.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using storefront::common::FairSemaphore;

TEST(FairSemaphore, NeverMoreThanItsPermitsAndWaitersInArrivalOrder) {
    FairSemaphore slots(1);
    auto held = slots.wait();
    std::mutex m;
    std::vector<int> order;
    std::vector<std::thread> waiters;
    for (int i = 0; i < 5; ++i) {
        waiters.emplace_back([&, i] {
            auto permit = slots.wait();
            std::lock_guard lock(m);
            order.push_back(i);
        });
        // Each starts waiting before the next one comes.
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
    EXPECT_FALSE(slots.tryAcquire()) << "a free permit would still go to the first waiter";
    held.reset();
    for (auto& t : waiters) t.join();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(slots.available(), 1);
}

TEST(FairSemaphore, TryTakeIsRefusedWhenAllAreTakenAndFreeAgainAfter) {
    FairSemaphore slots(2);
    auto a = slots.tryTake(), b = slots.tryTake(), c = slots.tryTake();
    EXPECT_TRUE(a);
    EXPECT_TRUE(b);
    EXPECT_FALSE(c);
    a.reset();
    EXPECT_TRUE(slots.tryTake());
    std::atomic<int> running{0}, peak{0};
    std::vector<std::thread> workers;
    b.reset();
    for (int i = 0; i < 8; ++i)
        workers.emplace_back([&] {
            auto permit = slots.wait();
            const int now = ++running;
            int seen = peak.load();
            while (now > seen && !peak.compare_exchange_weak(seen, now)) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            --running;
        });
    for (auto& t : workers) t.join();
    EXPECT_LE(peak.load(), 2);
}

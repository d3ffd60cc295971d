#include "auth/password.h"

#include "http/api_error.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace storefront::auth;
using Reasons = std::vector<std::string>;

// The smallest cost libsodium accepts, so the tests stay fast.
constexpr HashCost kTinyCost{1, 8192};

TEST(WeakPassword, LengthCountsCharactersNotBytes) {
    EXPECT_EQ(weakPasswordReasons("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 6), Reasons{"length"}); // "ééééé": 10 bytes, 5 characters
    EXPECT_EQ(weakPasswordReasons("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 5), Reasons{});
    EXPECT_EQ(weakPasswordReasons("\xF0\x9F\xA6\x9C\xF0\x9F\xA6\x9C\xF0\x9F\xA6\x9C", 4), Reasons{"length"}); // 3 emoji, 12 bytes
    EXPECT_EQ(weakPasswordReasons("kea-nest", 8), Reasons{});
    EXPECT_EQ(weakPasswordReasons("kea-nes", 8), Reasons{"length"});
    EXPECT_EQ(weakPasswordReasons("", 6), Reasons{"length"});
}

TEST(WeakPassword, CommonPasswordsArePwnedWhateverTheirCase) {
    EXPECT_EQ(weakPasswordReasons("password123", 6), Reasons{"pwned"});
    EXPECT_EQ(weakPasswordReasons("PassWord123", 6), Reasons{"pwned"});
    EXPECT_EQ(weakPasswordReasons("QWERTY", 6), Reasons{"pwned"});
    EXPECT_TRUE(isCommonPassword("LetMeIn"));
    EXPECT_FALSE(isCommonPassword("tuatara-under-the-wharf"));
    EXPECT_FALSE(isCommonPassword(""));
    EXPECT_FALSE(isCommonPassword("# Passwords refused at sign-up")); // comment lines are not entries
    // Both reasons at once, in GoTrue's order.
    EXPECT_EQ(weakPasswordReasons("12345", 6), (Reasons{"length", "pwned"}));
}

TEST(WeakPassword, TheListIsCompiledIn) {
    EXPECT_NE(commonPasswordList().find("\nqwerty\n"), std::string_view::npos);
}

TEST(WeakPassword, MessagesNameTheMinimumAndTheList) {
    EXPECT_EQ(weakPasswordMessage({"length"}, 6), "Password should be at least 6 characters.");
    EXPECT_EQ(weakPasswordMessage({"length"}, 10), "Password should be at least 10 characters.");
    EXPECT_EQ(weakPasswordMessage({"pwned"}, 6), "Password is known to be weak and easy to guess, please choose a different one.");
    EXPECT_EQ(weakPasswordMessage({"length", "pwned"}, 8),
              "Password should be at least 8 characters. Password is known to be weak and easy to guess, please choose a different "
              "one.");
    EXPECT_EQ(weakPasswordMessage({}, 6), "");
}

TEST(PasswordHasher, HashesWithArgon2idAtTheConfiguredCostAndVerifies) {
    PasswordHasher hasher(kTinyCost, 1, 1);
    auto stored = hasher.hash("correct horse battery staple");
    EXPECT_TRUE(stored.starts_with("$argon2id$v=19$m=8192,t=1,p=1$")) << stored;
    EXPECT_TRUE(hasher.verify(stored, "correct horse battery staple"));
    EXPECT_FALSE(hasher.verify(stored, "correct horse battery stapler"));
    EXPECT_FALSE(hasher.verify(stored, ""));
    EXPECT_NE(hasher.hash("correct horse battery staple"), stored); // salted
    EXPECT_FALSE(hasher.verify("not a hash", "correct horse battery staple"));
    EXPECT_FALSE(hasher.verify("", ""));
    hasher.verifyDummy("anything"); // costs a verify, answers nothing, never throws
}

TEST(PasswordHasher, PasswordsAreBytesNotCString) {
    PasswordHasher hasher(kTinyCost, 1, 1);
    const std::string withNul("kea\0nest", 8);
    auto stored = hasher.hash(withNul);
    EXPECT_TRUE(hasher.verify(stored, withNul));
    EXPECT_FALSE(hasher.verify(stored, "kea"));
}

TEST(PasswordHasher, NeedsRehashWhenTheCostChanged) {
    PasswordHasher tiny(kTinyCost, 1, 1), stronger(HashCost{2, 8192}, 1, 1), wider(HashCost{1, 16384}, 1, 1);
    auto stored = tiny.hash("correct horse battery staple");
    EXPECT_FALSE(tiny.needsRehash(stored));
    EXPECT_TRUE(stronger.needsRehash(stored));
    EXPECT_TRUE(wider.needsRehash(stored));
    EXPECT_TRUE(stronger.verify(stored, "correct horse battery staple")); // the parameters travel with the hash
    EXPECT_TRUE(tiny.needsRehash("not a hash"));
}

TEST(PasswordHasher, DefaultConcurrencyIsTheCoreCount) {
    PasswordHasher hasher(kTinyCost, 0, 0);
    EXPECT_GE(hasher.concurrency(), 1);
    PasswordHasher two(kTinyCost, 2, 0);
    EXPECT_EQ(two.concurrency(), 2);
}

// A request thread waking up must preempt a hash at once: the workers run under SCHED_IDLE (and
// nice 19), while the calling thread keeps its own policy.
TEST(PasswordHasher, WorkersRunAtIdlePriorityAndCallersDoNot) {
    PasswordHasher hasher(kTinyCost, 1, 1);
    int policy = -1;
    int nice = 0;
    hasher.runOnWorker([&] {
        policy = sched_getscheduler(0);
        errno = 0;
        nice = getpriority(PRIO_PROCESS, 0);
    });
    EXPECT_EQ(policy, SCHED_IDLE);
    EXPECT_EQ(nice, 19);
    EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
}

TEST(PasswordHasher, WithoutIdlePriorityWorkersAreOnlyNiced) {
    PasswordHasher hasher(kTinyCost, 1, 1, /*idlePriority=*/false);
    int policy = -1;
    int nice = 0;
    hasher.runOnWorker([&] {
        policy = sched_getscheduler(0);
        nice = getpriority(PRIO_PROCESS, 0);
    });
    EXPECT_EQ(policy, SCHED_OTHER);
    EXPECT_EQ(nice, 19);
}

TEST(PasswordHasher, PastTheQueueHashesAre429AtOnce) {
    PasswordHasher hasher(kTinyCost, 1, 1); // one worker, one place in the queue

    // Keep the only worker busy until released.
    std::promise<void> started, release;
    auto released = release.get_future().share();
    std::thread holder([&] { hasher.runOnWorker([&] { started.set_value(); released.wait(); }); });
    started.get_future().wait();

    // Two hashes at once: whichever comes second finds the queue full and is refused at once, the
    // other waits for the worker. (Which is which does not matter, so nothing here depends on timing.)
    std::mutex mutex;
    std::condition_variable refusedSignal;
    std::optional<std::string> hashes[2];
    std::optional<storefront::http::ApiError> errors[2];
    int refused = 0;
    auto attempt = [&](int i) {
        try {
            hashes[i] = hasher.hash("kea-" + std::to_string(i));
        } catch (const storefront::http::ApiError& e) {
            std::lock_guard lock(mutex);
            errors[i] = e;
            ++refused;
            refusedSignal.notify_all();
        }
    };
    std::thread first(attempt, 0), second(attempt, 1);
    bool oneRefused = false;
    {
        std::unique_lock lock(mutex);
        oneRefused = refusedSignal.wait_for(lock, std::chrono::seconds(10), [&] { return refused > 0; });
    }
    EXPECT_TRUE(oneRefused);
    if (oneRefused) {
        // Now the worker is busy and the queue is full for certain: every further hash or verify
        // (sign-ins of unknown emails included) is refused the same way.
        EXPECT_THROW((void)hasher.hash("third"), storefront::http::ApiError);
        EXPECT_THROW((void)hasher.verify("$argon2id$v=19$m=8192,t=1,p=1$", "third"), storefront::http::ApiError);
        EXPECT_THROW(hasher.verifyDummy("third"), storefront::http::ApiError);
    }
    release.set_value();
    holder.join();
    first.join();
    second.join();

    ASSERT_EQ(refused, 1);
    const int r = errors[0] ? 0 : 1;
    EXPECT_EQ(errors[r]->status(), 429);
    EXPECT_EQ(errors[r]->code(), "over_request_rate_limit");
    EXPECT_EQ(errors[r]->retryAfterSeconds, 1);
    ASSERT_TRUE(hashes[1 - r]);
    EXPECT_TRUE(hasher.verify(*hashes[1 - r], "kea-" + std::to_string(1 - r)));
    // Once the worker is free the gate opens again.
    EXPECT_NO_THROW(hasher.hash("again"));
}

} // namespace

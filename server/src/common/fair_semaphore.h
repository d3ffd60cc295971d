#pragma once
// A counting semaphore that serves its waiters in the order they arrived (a ticket lock), so no
// caller can be overtaken for ever: image decodes wait for one of their few slots in turn
// (catalog/image_codec.cpp), and streamed exports take a slot or are refused at once
// (http/server.cpp, tryAcquire).
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace storefront::common {

class FairSemaphore {
public:
    explicit FairSemaphore(int permits) : permits_(permits) {}
    FairSemaphore(const FairSemaphore&) = delete;
    FairSemaphore& operator=(const FairSemaphore&) = delete;

    // Waits for a permit, after every caller that started waiting before this one.
    void acquire() {
        std::unique_lock lock(mutex_);
        const std::uint64_t ticket = nextTicket_++;
        changed_.wait(lock, [&] { return ticket == serving_ && permits_ > 0; });
        --permits_;
        ++serving_;
        changed_.notify_all(); // the next ticket may take another free permit
    }
    // A permit now, if one is free and nobody is waiting for one; never waits.
    bool tryAcquire() {
        std::lock_guard lock(mutex_);
        if (nextTicket_ != serving_ || permits_ <= 0) return false;
        --permits_;
        ++nextTicket_;
        ++serving_;
        return true;
    }
    void release() {
        {
            std::lock_guard lock(mutex_);
            ++permits_;
        }
        changed_.notify_all();
    }
    // Permits free now (tests, metrics).
    int available() const {
        std::lock_guard lock(mutex_);
        return permits_;
    }

    // Holds a permit for a scope (or until moved from).
    class Permit {
    public:
        Permit() = default;
        explicit Permit(FairSemaphore& s) : s_(&s) {}
        Permit(Permit&& o) noexcept : s_(o.s_) { o.s_ = nullptr; }
        Permit& operator=(Permit&& o) noexcept {
            if (this != &o) {
                reset();
                s_ = o.s_;
                o.s_ = nullptr;
            }
            return *this;
        }
        Permit(const Permit&) = delete;
        Permit& operator=(const Permit&) = delete;
        ~Permit() { reset(); }
        void reset() {
            if (s_) s_->release();
            s_ = nullptr;
        }
        explicit operator bool() const { return s_ != nullptr; }

    private:
        FairSemaphore* s_ = nullptr;
    };
    // acquire(), as a Permit.
    Permit wait() {
        acquire();
        return Permit(*this);
    }
    // tryAcquire(), as a Permit (empty when refused).
    Permit tryTake() { return tryAcquire() ? Permit(*this) : Permit(); }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    int permits_;
    std::uint64_t nextTicket_ = 0, serving_ = 0;
};

} // namespace storefront::common

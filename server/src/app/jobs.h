#pragma once
// Background work on one thread: mail delivery (woken early when mail is queued), expiry of unpaid
// checkouts, and pruning of old rate-limit windows and other hourly housekeeping. Safe with several servers: each step claims its rows in the database.
#include "db/rate_limiter.h"
#include "mail/outbox.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>
#include <thread>

namespace storefront::app {

class Jobs {
public:
    Jobs(mail::Outbox& outbox, db::RateLimiter& limiter, int pollSeconds)
        : outbox_(outbox), limiter_(limiter), pollSeconds_(pollSeconds) {}
    ~Jobs() { stop(); }

    void start();
    void stop();
    void wake(); // something was queued
    // Housekeeping run about once an hour (before start()); it must be safe on several servers.
    void addHourly(std::function<void()> task) { hourly_.push_back(std::move(task)); }
    // Work run every round (at most pollSeconds apart, e.g. expiring unpaid checkouts); same rule.
    void addEveryRound(std::function<void()> task) { everyRound_.push_back(std::move(task)); }

private:
    void run();
    mail::Outbox& outbox_;
    db::RateLimiter& limiter_;
    int pollSeconds_;
    std::vector<std::function<void()>> hourly_;
    std::vector<std::function<void()>> everyRound_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    bool woken_ = false;
};

} // namespace storefront::app

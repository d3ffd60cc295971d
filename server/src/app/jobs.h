#pragma once
// Background work on one thread: mail delivery (woken early when mail is queued) and pruning of
// old rate-limit windows. Safe with several servers: each step claims its rows in the database.
#include "db/rate_limiter.h"
#include "mail/outbox.h"

#include <condition_variable>
#include <mutex>
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

private:
    void run();
    mail::Outbox& outbox_;
    db::RateLimiter& limiter_;
    int pollSeconds_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    bool woken_ = false;
};

} // namespace storefront::app

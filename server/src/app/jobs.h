#pragma once
// Background work on one thread, as the modules schedule it (common/module.h): every round
// (mail delivery, expiry of unpaid checkouts), and hourly housekeeping. A round runs at most
// pollSeconds apart, and at once when woken (a committed write notified the mail topic).
// Safe with several servers: each task claims its rows in the database.
#include "common/module.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace storefront::app {

class Jobs : public Schedule {
public:
    explicit Jobs(int pollSeconds) : pollSeconds_(pollSeconds) {}
    ~Jobs() override { stop(); }

    void start();
    void stop();
    void wake(); // something was queued: run a round now

    void everyRound(std::function<void()> task) override { everyRound_.push_back(std::move(task)); }
    void hourly(std::function<void()> task) override { hourly_.push_back(std::move(task)); }

private:
    void run();
    void runEach(const std::vector<std::function<void()>>& tasks);

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

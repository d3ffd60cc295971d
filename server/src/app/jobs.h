#pragma once
// Background work on one thread, as the modules schedule it (common/module.h): every round
// (mail delivery, expiry of unpaid checkouts), and hourly housekeeping. A round runs at most
// pollSeconds apart, and at once when woken (a committed write notified the mail topic).
// Safe with several servers: each task claims its rows in the database.
#include "common/module.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
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

    // Names the tasks added next (the module adding them): an every-round task is called
    // "<owner>", an hourly one "<owner>.hourly" (then "_2", "_3"... should one owner add several).
    void setOwner(std::string owner) { owner_ = std::move(owner); }
    void everyRound(std::function<void()> task) override { add(everyRound_, std::move(task), owner_); }
    void hourly(std::function<void()> task) override { add(hourly_, std::move(task), owner_ + ".hourly"); }

    // For /metrics: each task's name, when it last ran to the end (unix seconds, 0: not yet) and
    // how often it failed. Safe to call while the jobs run.
    struct Status {
        std::string name;
        std::int64_t lastSuccessSeconds = 0;
        std::uint64_t failures = 0;
    };
    std::vector<Status> status() const;

private:
    struct Task {
        std::string name;
        std::function<void()> run;
        std::atomic<std::int64_t> lastSuccessSeconds{0};
        std::atomic<std::uint64_t> failures{0};
    };
    void add(std::deque<Task>& list, std::function<void()> task, const std::string& baseName);
    void run();
    void runEach(std::deque<Task>& tasks);

    int pollSeconds_;
    std::string owner_ = "server";
    std::deque<Task> hourly_; // a deque: the tasks do not move (they hold atomics)
    std::deque<Task> everyRound_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    bool woken_ = false;
};

} // namespace storefront::app

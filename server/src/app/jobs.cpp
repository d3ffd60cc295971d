#include "app/jobs.h"

#include <Poco/Logger.h>
#include <Poco/Timestamp.h>

namespace storefront::app {

void Jobs::start() {
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
}

void Jobs::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Jobs::wake() {
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    cv_.notify_all();
}

void Jobs::runEach(const std::vector<std::function<void()>>& tasks) {
    for (const auto& task : tasks) {
        try {
            task();
        } catch (const std::exception& e) {
            // The database may be briefly unavailable; the next round retries. One failing task
            // does not hold back the others.
            Poco::Logger::get("jobs").error("background job failed: %s", std::string(e.what()));
        }
    }
}

void Jobs::run() {
    std::int64_t lastHourly = 0;
    while (true) {
        {
            std::unique_lock lock(mutex_);
            cv_.wait_for(lock, std::chrono::seconds(pollSeconds_), [this] { return stopping_ || woken_; });
            if (stopping_) return;
            woken_ = false;
        }
        runEach(everyRound_);
        const auto nowSeconds = Poco::Timestamp().epochTime();
        if (nowSeconds - lastHourly > 3600) {
            runEach(hourly_);
            lastHourly = nowSeconds;
        }
    }
}

} // namespace storefront::app

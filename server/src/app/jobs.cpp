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

void Jobs::run() {
    std::int64_t lastPrune = 0;
    while (true) {
        {
            std::unique_lock lock(mutex_);
            cv_.wait_for(lock, std::chrono::seconds(pollSeconds_), [this] { return stopping_ || woken_; });
            if (stopping_) return;
            woken_ = false;
        }
        try {
            outbox_.deliverDue();
            for (const auto& task : everyRound_) task();
            const auto nowSeconds = Poco::Timestamp().epochTime();
            if (nowSeconds - lastPrune > 3600) {
                limiter_.prune(nowSeconds - 2 * 86400);
                for (const auto& task : hourly_) task();
                lastPrune = nowSeconds;
            }
        } catch (const std::exception& e) {
            // The database may be briefly unavailable; the next round retries.
            Poco::Logger::get("jobs").error("background job failed: %s", std::string(e.what()));
        }
    }
}

} // namespace storefront::app

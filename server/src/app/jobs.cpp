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

void Jobs::add(std::deque<Task>& list, std::function<void()> task, const std::string& baseName) {
    std::string name = baseName;
    auto taken = [&](const std::string& candidate) {
        for (const auto* tasks : {&everyRound_, &hourly_})
            for (const auto& existing : *tasks)
                if (existing.name == candidate) return true;
        return false;
    };
    for (int n = 2; taken(name); ++n) name = baseName + "_" + std::to_string(n);
    auto& added = list.emplace_back();
    added.name = std::move(name);
    added.run = std::move(task);
}

std::vector<Jobs::Status> Jobs::status() const {
    std::vector<Status> out;
    for (const auto* tasks : {&everyRound_, &hourly_})
        for (const auto& task : *tasks)
            out.push_back({task.name, task.lastSuccessSeconds.load(std::memory_order_relaxed),
                           task.failures.load(std::memory_order_relaxed)});
    return out;
}

void Jobs::runEach(std::deque<Task>& tasks) {
    for (auto& task : tasks) {
        try {
            task.run();
            task.lastSuccessSeconds.store(Poco::Timestamp().epochTime(), std::memory_order_relaxed);
        } catch (const std::exception& e) {
            // The database may be briefly unavailable; the next round retries. One failing task
            // does not hold back the others.
            task.failures.fetch_add(1, std::memory_order_relaxed);
            Poco::Logger::get("jobs").error("background job %s failed: %s", task.name, std::string(e.what()));
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

#include "http/read_watch.h"

#include <Poco/Exception.h>

namespace storefront::http {

ReadWatch::ReadWatch(int headerTimeoutSeconds, int maxReading)
    : timeout_(headerTimeoutSeconds), maxReading_(static_cast<std::size_t>(maxReading < 1 ? 1 : maxReading)),
      thread_([this] { run(); }) {}

ReadWatch::~ReadWatch() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t ReadWatch::begin(Poco::Net::StreamSocket& socket) {
    std::lock_guard lock(mutex_);
    const auto ticket = next_++;
    reading_.emplace(ticket, std::pair{&socket, std::chrono::steady_clock::now()});
    // Over the share: the connection reading longest makes room.
    while (reading_.size() > maxReading_) cutLocked(reading_.begin());
    return ticket;
}

bool ReadWatch::end(std::uint64_t ticket) {
    std::lock_guard lock(mutex_);
    reading_.erase(ticket);
    return cut_.erase(ticket) > 0;
}

void ReadWatch::cutLocked(decltype(reading_)::iterator it) {
    try {
        // The receiving side only: the blocked read returns at once, and the 408 can still be sent.
        it->second.first->shutdownReceive();
    } catch (const Poco::Exception&) {
        // Already closed by the client: its read fails on its own.
    }
    cut_.insert(it->first);
    reading_.erase(it);
    ++cuts_;
}

void ReadWatch::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, std::chrono::milliseconds(200));
        const auto late = std::chrono::steady_clock::now() - timeout_;
        // In ticket order, so in start order: stop at the first still in time.
        while (!reading_.empty() && reading_.begin()->second.second < late) cutLocked(reading_.begin());
    }
}

} // namespace storefront::http

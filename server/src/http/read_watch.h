#pragma once
// The watchdog over connections reading a request's line and headers (http/connection.cpp). A
// socket's receive timeout bounds each wait for a byte, not the whole request: a client sending
// one byte a second (slowloris) would hold its thread for as long as it likes. Here every
// connection reading headers is registered, and the watch cuts it (shuts its receiving side, so
// the blocked read ends at once) when
//  - its headers have taken longer than the header timeout, or
//  - more connections than `maxReading` are reading headers: the one reading longest goes (a
//    browser's headers arrive in one packet, so the long readers are the slow senders).
// The connection then answers 408 request_timeout and closes, and its thread is free.
#include <Poco/Net/StreamSocket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace storefront::http {

class ReadWatch {
public:
    ReadWatch(int headerTimeoutSeconds, int maxReading);
    ~ReadWatch();
    ReadWatch(const ReadWatch&) = delete;
    ReadWatch& operator=(const ReadWatch&) = delete;

    // One connection's header read, from construction to end().
    class Scope {
    public:
        Scope(ReadWatch& watch, Poco::Net::StreamSocket& socket) : watch_(watch), ticket_(watch.begin(socket)) {}
        ~Scope() { end(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        // Done reading (idempotent). True when the watch cut the read (it timed out).
        bool end() {
            if (ticket_ != 0) {
                cut_ = watch_.end(ticket_);
                ticket_ = 0;
            }
            return cut_;
        }

    private:
        ReadWatch& watch_;
        std::uint64_t ticket_;
        bool cut_ = false;
    };

    // Header reads cut since the start (too slow, or past the share).
    std::uint64_t cuts() const { return cuts_.load(); }

private:
    std::uint64_t begin(Poco::Net::StreamSocket& socket);
    bool end(std::uint64_t ticket);
    void cutLocked(std::map<std::uint64_t, std::pair<Poco::Net::StreamSocket*, std::chrono::steady_clock::time_point>>::iterator it);
    void run();

    const std::chrono::seconds timeout_;
    const std::size_t maxReading_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::uint64_t next_ = 1;
    // By ticket, so by when each began: the first is the one reading longest.
    std::map<std::uint64_t, std::pair<Poco::Net::StreamSocket*, std::chrono::steady_clock::time_point>> reading_;
    std::set<std::uint64_t> cut_;
    std::atomic<std::uint64_t> cuts_{0};
    std::thread thread_;
};

} // namespace storefront::http

#include "http/event_loop.h"

#include <Poco/Logger.h>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace storefront::http {

namespace {
// A request line and headers larger than this are read by a thread (POCO's own reading).
constexpr std::size_t kReadPiece = 4096;
constexpr int kMaxEvents = 64;
bool namedLike(std::string_view name, std::string_view lower) {
    if (name.size() != lower.size()) return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (static_cast<char>(std::tolower(static_cast<unsigned char>(name[i]))) != lower[i]) return false;
    return true;
}

} // namespace

std::optional<LoopRequestHead> loopRequestHead(std::string_view bytes) {
    const auto end = bytes.find("\r\n\r\n");
    if (end == std::string_view::npos || end + 4 != bytes.size()) return std::nullopt;
    const auto lineEnd = bytes.find("\r\n");
    const auto line = bytes.substr(0, lineEnd);
    const auto first = line.find(' ');
    if (first == std::string_view::npos) return std::nullopt;
    const auto second = line.find(' ', first + 1);
    if (second == std::string_view::npos || line.substr(second + 1) != "HTTP/1.1") return std::nullopt;
    const auto method = line.substr(0, first);
    const auto target = line.substr(first + 1, second - first - 1);
    if (method != "GET" && method != "HEAD") return std::nullopt;
    if (target.empty() || target.front() != '/' || target.find("/.") != std::string_view::npos) return std::nullopt;
    for (const char c : target)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7F || c == '%' || c == '#')
            return std::nullopt;
    int fields = 0;
    for (auto at = lineEnd + 2; at < end + 2;) {
        const auto next = bytes.find("\r\n", at);
        const auto header = bytes.substr(at, next - at);
        const auto colon = header.find(':');
        // "Name: value", the name a token (no folded lines, no spaces), at most POCO's 100 fields.
        if (colon == std::string_view::npos || colon == 0 || ++fields > 100) return std::nullopt;
        const auto name = header.substr(0, colon);
        for (const char c : name)
            if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos)
                return std::nullopt;
        if (namedLike(name, "content-length") || namedLike(name, "transfer-encoding") || namedLike(name, "expect"))
            return std::nullopt;
        at = next + 2;
    }
    return LoopRequestHead{method, target.substr(0, target.find('?'))};
}

struct EventLoops::Loop {
    int epoll = -1;
    int wake = -1; // eventfd: new connections in the inbox, or stop
    std::mutex mutex;
    std::vector<std::unique_ptr<ClientConnection>> inbox; // under mutex
    bool closed = false;                                  // under mutex: the loop has ended
    // Waiting connections, longest idle first (they share one timeout).
    std::list<std::unique_ptr<ClientConnection>> idle;
    std::atomic<std::size_t> count{0};
    std::thread thread;

    ~Loop() {
        if (epoll >= 0) ::close(epoll);
        if (wake >= 0) ::close(wake);
    }
};

EventLoops::EventLoops(int threads, std::chrono::milliseconds idleTimeout, OnRequest onRequest, HandOff handOff)
    : idleTimeout_(idleTimeout), onRequest_(std::move(onRequest)), handOff_(std::move(handOff)) {
    for (int i = 0; i < std::max(1, threads); ++i) {
        auto loop = std::make_unique<Loop>();
        loop->epoll = ::epoll_create1(EPOLL_CLOEXEC);
        loop->wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (loop->epoll < 0 || loop->wake < 0) throw std::runtime_error("event loop: epoll or eventfd failed");
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.ptr = nullptr; // the wake-up descriptor
        if (::epoll_ctl(loop->epoll, EPOLL_CTL_ADD, loop->wake, &event) != 0)
            throw std::runtime_error("event loop: epoll_ctl failed");
        loops_.push_back(std::move(loop));
    }
    for (auto& loop : loops_) loop->thread = std::thread([this, raw = loop.get()] { run(*raw); });
}

EventLoops::~EventLoops() { stop(); }

void EventLoops::park(std::unique_ptr<ClientConnection> connection) {
    auto& loop = *loops_[next_.fetch_add(1, std::memory_order_relaxed) % loops_.size()];
    {
        std::lock_guard lock(loop.mutex);
        if (loop.closed || stopping_) return; // stopping: the connection closes here
        loop.inbox.push_back(std::move(connection));
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(loop.wake, &one, sizeof one);
}

void EventLoops::stop() {
    if (stopping_.exchange(true)) return;
    const std::uint64_t one = 1;
    for (auto& loop : loops_) [[maybe_unused]] const auto written = ::write(loop->wake, &one, sizeof one);
    for (auto& loop : loops_)
        if (loop->thread.joinable()) loop->thread.join();
}

std::size_t EventLoops::waiting() const {
    std::size_t total = 0;
    for (const auto& loop : loops_) total += loop->count.load(std::memory_order_relaxed);
    return total;
}

void EventLoops::drop(Loop& loop, ClientConnection& connection) {
    ::epoll_ctl(loop.epoll, EPOLL_CTL_DEL, connection.fd(), nullptr);
    loop.idle.erase(connection.slot); // closes it
    loop.count.store(loop.idle.size(), std::memory_order_relaxed);
}

void EventLoops::readable(Loop& loop, ClientConnection& connection) {
    Next next = Next::Close;
    try {
        const int read = connection.impl->readReady(kReadPiece);
        if (read < 0) return; // nothing after all
        if (read > 0) next = onRequest_(connection);
    } catch (const std::exception& e) {
        Poco::Logger::get("http").debug("event loop: connection dropped: %s", std::string(e.what()));
    }
    if (next == Next::Park) {
        connection.idleSince = std::chrono::steady_clock::now();
        loop.idle.splice(loop.idle.end(), loop.idle, connection.slot);
        return;
    }
    if (next == Next::Close) {
        drop(loop, connection);
        return;
    }
    ::epoll_ctl(loop.epoll, EPOLL_CTL_DEL, connection.fd(), nullptr);
    auto owned = std::move(*connection.slot);
    loop.idle.erase(connection.slot);
    loop.count.store(loop.idle.size(), std::memory_order_relaxed);
    handOff_(std::move(owned));
}

void EventLoops::run(Loop& loop) {
    epoll_event events[kMaxEvents];
    while (!stopping_) {
        int timeout = -1;
        if (!loop.idle.empty()) {
            const auto due = loop.idle.front()->idleSince + idleTimeout_ - std::chrono::steady_clock::now();
            timeout = static_cast<int>(std::clamp<std::int64_t>(
                std::chrono::duration_cast<std::chrono::milliseconds>(due).count() + 1, 0, 1000));
        }
        const int ready = ::epoll_wait(loop.epoll, events, kMaxEvents, timeout);
        if (ready < 0 && errno != EINTR) break;
        if (stopping_) break;
        for (int i = 0; i < ready; ++i) {
            if (events[i].data.ptr != nullptr) {
                readable(loop, *static_cast<ClientConnection*>(events[i].data.ptr));
                continue;
            }
            std::uint64_t wakes = 0;
            [[maybe_unused]] const auto drained = ::read(loop.wake, &wakes, sizeof wakes);
            std::vector<std::unique_ptr<ClientConnection>> arrived;
            {
                std::lock_guard lock(loop.mutex);
                arrived.swap(loop.inbox);
            }
            const auto now = std::chrono::steady_clock::now();
            for (auto& connection : arrived) {
                auto* raw = connection.get();
                raw->idleSince = now;
                raw->slot = loop.idle.insert(loop.idle.end(), std::move(connection));
                epoll_event event{};
                event.events = EPOLLIN | EPOLLRDHUP;
                event.data.ptr = raw;
                if (::epoll_ctl(loop.epoll, EPOLL_CTL_ADD, raw->fd(), &event) != 0) loop.idle.erase(raw->slot);
            }
            loop.count.store(loop.idle.size(), std::memory_order_relaxed);
        }
        // The keep-alive timeout: the longest idle first.
        const auto late = std::chrono::steady_clock::now() - idleTimeout_;
        while (!loop.idle.empty() && loop.idle.front()->idleSince <= late) drop(loop, *loop.idle.front());
    }
    std::vector<std::unique_ptr<ClientConnection>> left;
    {
        std::lock_guard lock(loop.mutex);
        loop.closed = true;
        left.swap(loop.inbox);
    }
    loop.idle.clear(); // closes every waiting connection
    loop.count.store(0, std::memory_order_relaxed);
}

} // namespace storefront::http

#pragma once
// The server's log channel: formats each message in the caller's thread, appends the line to a
// memory buffer and lets one writer thread write the buffer out in large pieces. A request thread
// never waits for the terminal, a pipe or journald; the per-request access line costs a format and
// a copy instead of a write(2) under a lock (bench/README.md, "Where the time goes").
//
// - Lines reach the file descriptor in the order they were logged, whole, never interleaved.
// - Buffered lines are written within `interval`, at once when the buffer passes `flushBytes`, when
//   a warning (or worse) is logged, and on flush()/close(). Errors and fatals are written before
//   log() returns, so a crash right after one still leaves it on the terminal.
// - Nothing is dropped: past `maxBytes` (the writer cannot keep up) the caller writes the buffer
//   itself, so memory stays bounded and a slow terminal slows logging down rather than losing it.
#include <Poco/AutoPtr.h>
#include <Poco/Channel.h>
#include <Poco/Formatter.h>
#include <Poco/Message.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace storefront::common {

// The server's line format (STOREFRONT_LOG_FORMAT):
// - text: "%Y-%m-%dT%H:%M:%S.%iZ %p %s: %t" in UTC, exactly as Poco's PatternFormatter writes it
//   with that pattern, at a fraction of the cost: the date and time up to the second are kept per
//   thread and rebuilt only when the second changes. A line written while a request is handled ends
//   in " request_id=<id>" (common/log_context.h).
// - json: one object per line: {"time","level","logger","message"}, "request_id" while a request is
//   handled, and for the access line "method","path","status","duration_ms","client","user_id",
//   "bytes". Text that is not UTF-8 is written with U+FFFD in place of the bad bytes.
// The request context is thread-local: use it with a channel that formats in the logging thread
// (BufferedLogChannel does).
class LogLineFormatter : public Poco::Formatter {
public:
    enum class Style { Text, Json };
    explicit LogLineFormatter(Style style = Style::Text) : style_(style) {}
    void format(const Poco::Message& message, std::string& text) override;

private:
    void formatText(const Poco::Message& message, std::string& text);
    void formatJson(const Poco::Message& message, std::string& text);
    Style style_;
};

// Appends `value` as a JSON string (quotes included); invalid UTF-8 becomes U+FFFD.
void appendJsonString(std::string& out, std::string_view value);

class BufferedLogChannel : public Poco::Channel {
public:
    struct Options {
        std::chrono::milliseconds interval{100};
        std::size_t flushBytes = 64 * 1024;
        std::size_t maxBytes = 4 * 1024 * 1024;
    };

    // Writes formatted lines (each followed by '\n') to `fd`, which the channel does not close.
    BufferedLogChannel(Poco::AutoPtr<Poco::Formatter> formatter, int fd, Options options);
    BufferedLogChannel(Poco::AutoPtr<Poco::Formatter> formatter, int fd)
        : BufferedLogChannel(std::move(formatter), fd, Options{}) {}

    void open() override {}
    // Writes everything buffered and stops the writer thread; later messages are written at once.
    void close() override;
    void log(const Poco::Message& message) override;

    // Writes everything buffered so far before returning.
    void flush();

protected:
    ~BufferedLogChannel() override;

private:
    void run();
    void writeOut(); // swaps the buffer out and writes it; callers hold writeMutex_

    Poco::AutoPtr<Poco::Formatter> formatter_;
    int fd_;
    Options options_;
    std::mutex mutex_;       // guards buffer_, urgent_, stopping_
    std::mutex writeMutex_;  // one writer at a time, so lines keep their order
    std::condition_variable wake_;
    std::string buffer_;
    std::string writing_;    // guarded by writeMutex_
    bool urgent_ = false;
    bool stopping_ = false;
    std::thread writer_;
};

} // namespace storefront::common

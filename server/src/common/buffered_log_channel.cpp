#include "common/buffered_log_channel.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>

namespace storefront::common {

namespace {

const char* logPriorityName(Poco::Message::Priority priority) {
    switch (priority) {
    case Poco::Message::PRIO_FATAL: return "Fatal";
    case Poco::Message::PRIO_CRITICAL: return "Critical";
    case Poco::Message::PRIO_ERROR: return "Error";
    case Poco::Message::PRIO_WARNING: return "Warning";
    case Poco::Message::PRIO_NOTICE: return "Notice";
    case Poco::Message::PRIO_INFORMATION: return "Information";
    case Poco::Message::PRIO_DEBUG: return "Debug";
    case Poco::Message::PRIO_TRACE: return "Trace";
    }
    return "";
}

} // namespace

void LogLineFormatter::format(const Poco::Message& message, std::string& text) {
    thread_local std::time_t cachedSecond = -1;
    thread_local char cachedPrefix[80] = {0}; // "2026-11-25T12:05:03."
    const Poco::Timestamp::TimeVal micros = message.getTime().epochMicroseconds();
    const std::time_t second = static_cast<std::time_t>(micros / 1000000);
    if (second != cachedSecond) {
        std::tm utc{};
        gmtime_r(&second, &utc);
        std::snprintf(cachedPrefix, sizeof cachedPrefix, "%04d-%02d-%02dT%02d:%02d:%02d.", utc.tm_year + 1900,
                      utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
        cachedSecond = second;
    }
    const int millis = static_cast<int>((micros % 1000000) / 1000);
    const char digits[4] = {static_cast<char>('0' + millis / 100), static_cast<char>('0' + millis / 10 % 10),
                            static_cast<char>('0' + millis % 10), 'Z'};
    text.reserve(text.size() + 40 + message.getSource().size() + message.getText().size());
    text.append(cachedPrefix).append(digits, 4).append(1, ' ').append(logPriorityName(message.getPriority()));
    text.append(1, ' ').append(message.getSource()).append(": ").append(message.getText());
}

BufferedLogChannel::BufferedLogChannel(Poco::AutoPtr<Poco::Formatter> formatter, int fd, Options options)
    : formatter_(std::move(formatter)), fd_(fd), options_(options) {
    buffer_.reserve(options_.flushBytes * 2);
    writer_ = std::thread([this] { run(); });
}

BufferedLogChannel::~BufferedLogChannel() {
    try {
        close();
    } catch (...) {
    }
}

void BufferedLogChannel::log(const Poco::Message& message) {
    std::string line;
    if (formatter_) formatter_->format(message, line);
    else line = message.getText();
    line += '\n';
    const bool serious = message.getPriority() <= Poco::Message::PRIO_WARNING;
    bool now = message.getPriority() <= Poco::Message::PRIO_ERROR;
    {
        std::lock_guard lock(mutex_);
        const bool wasEmpty = buffer_.empty();
        buffer_ += line;
        if (stopping_ || buffer_.size() >= options_.maxBytes) now = true;
        const bool wake = wasEmpty || ((serious || buffer_.size() >= options_.flushBytes) && !urgent_);
        if (serious || buffer_.size() >= options_.flushBytes) urgent_ = true;
        if (wake && !now) wake_.notify_one();
    }
    if (now) flush();
}

void BufferedLogChannel::flush() {
    std::lock_guard lock(writeMutex_);
    writeOut();
}

void BufferedLogChannel::close() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wake_.notify_one();
    if (writer_.joinable() && writer_.get_id() != std::this_thread::get_id()) writer_.join();
    flush();
}

void BufferedLogChannel::run() {
    for (;;) {
        bool stop = false;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !buffer_.empty(); });
            // Something to write: collect more for a moment unless it is urgent.
            if (!stopping_ && !urgent_) wake_.wait_for(lock, options_.interval, [this] { return stopping_ || urgent_; });
            urgent_ = false;
            stop = stopping_;
        }
        flush();
        if (stop) return;
    }
}

void BufferedLogChannel::writeOut() {
    {
        std::lock_guard lock(mutex_);
        writing_.swap(buffer_);
    }
    const char* data = writing_.data();
    std::size_t left = writing_.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // the terminal or pipe is gone: nothing better to do with the lines
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    writing_.clear();
}

} // namespace storefront::common

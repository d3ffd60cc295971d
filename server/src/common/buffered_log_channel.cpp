#include "common/buffered_log_channel.h"

#include <unistd.h>

#include <cerrno>

namespace storefront::common {

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

#include "common/buffered_log_channel.h"

#include "common/log_context.h"

#include <unistd.h>

#include <charconv>

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

// The date and time up to the second ("2026-11-25T12:05:03."), rebuilt when the second changes,
// then the milliseconds and 'Z'.
void appendTime(std::string& text, const Poco::Timestamp& time) {
    thread_local std::time_t cachedSecond = -1;
    thread_local char cachedPrefix[80] = {0};
    const Poco::Timestamp::TimeVal micros = time.epochMicroseconds();
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
    text.append(cachedPrefix).append(digits, 4);
}

const char* jsonLevelName(Poco::Message::Priority priority) {
    switch (priority) {
    case Poco::Message::PRIO_FATAL: return "fatal";
    case Poco::Message::PRIO_CRITICAL: return "critical";
    case Poco::Message::PRIO_ERROR: return "error";
    case Poco::Message::PRIO_WARNING: return "warning";
    case Poco::Message::PRIO_NOTICE: return "notice";
    case Poco::Message::PRIO_INFORMATION: return "info";
    case Poco::Message::PRIO_DEBUG: return "debug";
    case Poco::Message::PRIO_TRACE: return "trace";
    }
    return "";
}

template <class Number>
void appendLogNumber(std::string& out, Number value) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
}

// Length of the well-formed UTF-8 sequence at `i` (RFC 3629), or 0.
std::size_t utf8SequenceAt(std::string_view text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) length = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) length = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) length = 4, cp = c & 0x07;
    else return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (next & 0x3F);
    }
    if ((length == 3 && cp < 0x800) || (length == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return length;
}

} // namespace

void appendJsonString(std::string& out, std::string_view value) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t i = 0;
    while (i < value.size()) {
        const auto c = static_cast<unsigned char>(value[i]);
        if (c >= 0x80) {
            const std::size_t length = utf8SequenceAt(value, i);
            if (length == 0) {
                out.append("\ufffd");
                ++i;
            } else {
                out.append(value.substr(i, length));
                i += length;
            }
            continue;
        }
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
            if (c < 0x20 || c == 0x7F) {
                const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
                out.append(escaped, 6);
            } else {
                out.push_back(static_cast<char>(c));
            }
        }
        ++i;
    }
    out.push_back('"');
}

void LogLineFormatter::format(const Poco::Message& message, std::string& text) {
    if (style_ == Style::Json) formatJson(message, text);
    else formatText(message, text);
}

void LogLineFormatter::formatText(const Poco::Message& message, std::string& text) {
    const auto requestId = currentRequestId();
    text.reserve(text.size() + 40 + message.getSource().size() + message.getText().size() +
                 (requestId.empty() ? 0 : 12 + requestId.size()));
    appendTime(text, message.getTime());
    text.append(1, ' ').append(logPriorityName(message.getPriority()));
    text.append(1, ' ').append(message.getSource()).append(": ").append(message.getText());
    if (!requestId.empty()) text.append(" request_id=").append(requestId);
}

void LogLineFormatter::formatJson(const Poco::Message& message, std::string& text) {
    const auto requestId = currentRequestId();
    const AccessRecord* access = currentAccessRecord();
    text.reserve(text.size() + 96 + message.getSource().size() + message.getText().size() + requestId.size() +
                 (access ? 128 + access->path.size() : 0));
    text.append("{\"time\":\"");
    appendTime(text, message.getTime());
    text.append("\",\"level\":\"").append(jsonLevelName(message.getPriority())).append("\",\"logger\":");
    appendJsonString(text, message.getSource());
    text.append(",\"message\":");
    appendJsonString(text, message.getText());
    if (access) {
        text.append(",\"method\":");
        appendJsonString(text, access->method);
        text.append(",\"path\":");
        appendJsonString(text, access->path);
        text.append(",\"status\":");
        appendLogNumber(text, access->status);
        // Milliseconds with three decimals, from whole microseconds (no floating point).
        const auto micros = static_cast<std::uint64_t>(access->micros < 0 ? 0 : access->micros);
        text.append(",\"duration_ms\":");
        appendLogNumber(text, micros / 1000);
        const auto fraction = micros % 1000;
        const char decimals[4] = {'.', static_cast<char>('0' + fraction / 100), static_cast<char>('0' + fraction / 10 % 10),
                                  static_cast<char>('0' + fraction % 10)};
        text.append(decimals, 4);
        text.append(",\"client\":");
        appendJsonString(text, access->client);
        text.append(",\"user_id\":");
        if (access->userId.empty()) text.append("null");
        else appendJsonString(text, access->userId);
        text.append(",\"bytes\":");
        appendLogNumber(text, access->bytes);
    }
    if (!requestId.empty()) {
        text.append(",\"request_id\":");
        appendJsonString(text, requestId);
    }
    text.append(1, '}');
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

#include "common/csv.h"

#include <string>

namespace storefront::csv {

bool looksLikeFormula(std::string_view value) {
    if (value.empty()) return false;
    switch (value.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
        return true;
    default:
        return false;
    }
}

void appendField(std::string& out, std::string_view value, bool guard) {
    const bool prefix = guard && looksLikeFormula(value);
    const bool quote = value.find_first_of(",\"\r\n") != std::string_view::npos;
    if (quote) out.push_back('"');
    if (prefix) out.push_back('\'');
    for (const char c : value) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    if (quote) out.push_back('"');
}

Writer::Writer(Flush flush, std::size_t flushBytes) : flush_(std::move(flush)), flushBytes_(flushBytes) {
    buffer_.reserve(flushBytes_ + 4096);
}

void Writer::header(const std::vector<std::string>& names) {
    buffer_.append(kBom);
    bool first = true;
    for (const auto& name : names) {
        if (!first) buffer_.push_back(',');
        first = false;
        appendField(buffer_, name);
    }
    buffer_.append("\r\n");
}

void Writer::separate() {
    if (rowStarted_) buffer_.push_back(',');
    rowStarted_ = true;
}

Writer& Writer::text(std::string_view value) {
    separate();
    appendField(buffer_, value, true);
    return *this;
}

Writer& Writer::text(const std::optional<std::string>& value) {
    separate();
    if (value) appendField(buffer_, *value, true);
    return *this;
}

Writer& Writer::number(std::string_view value) {
    separate();
    appendField(buffer_, value, false);
    return *this;
}

Writer& Writer::integer(std::int64_t value) { return number(std::to_string(value)); }

Writer& Writer::time(std::optional<nz::Instant> at) {
    separate();
    if (at) buffer_.append(nz::formatWithOffset(*at));
    return *this;
}

void Writer::endRow() {
    buffer_.append("\r\n");
    rowStarted_ = false;
    ++rows_;
    if (buffer_.size() >= flushBytes_) {
        flush_(buffer_);
        buffer_.clear();
    }
}

void Writer::finish() {
    if (buffer_.empty()) return;
    flush_(buffer_);
    buffer_.clear();
}

} // namespace storefront::csv

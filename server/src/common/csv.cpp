#include "common/csv.h"

#include <string>
#include <utility>

namespace storefront::csv {

namespace {

// The code point at `at` in UTF-8 text and its length in bytes (a malformed byte: itself, 1 byte).
std::pair<char32_t, std::size_t> codePointAt(std::string_view text, std::size_t at) {
    const auto b = static_cast<unsigned char>(text[at]);
    const auto cont = [&](std::size_t i) { return at + i < text.size() && (static_cast<unsigned char>(text[at + i]) & 0xC0) == 0x80; };
    const auto bits = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(text[at + i]) & 0x3F); };
    if (b < 0x80) return {b, 1};
    if ((b & 0xE0) == 0xC0 && cont(1)) return {(static_cast<char32_t>(b & 0x1F) << 6) | bits(1), 2};
    if ((b & 0xF0) == 0xE0 && cont(1) && cont(2)) return {(static_cast<char32_t>(b & 0x0F) << 12) | (bits(1) << 6) | bits(2), 3};
    if ((b & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3))
        return {(static_cast<char32_t>(b & 0x07) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3), 4};
    return {b, 1};
}

// White space and invisible characters a spreadsheet skips before it decides that a cell is a
// formula: space, tab, CR, LF, no-break space, the zero-width space, non-joiner and joiner, the
// word joiner and the byte-order mark (zero-width no-break space).
bool skippedBeforeFormula(char32_t c) {
    switch (c) {
    case U' ':
    case U'\t':
    case U'\r':
    case U'\n':
    case U'\u00A0':
    case U'\u200B':
    case U'\u200C':
    case U'\u200D':
    case U'\u2060':
    case U'\uFEFF':
        return true;
    default:
        return false;
    }
}

// =, +, - and @, and their full-width forms (which spreadsheets read as the same operators).
bool startsFormula(char32_t c) {
    switch (c) {
    case U'=':
    case U'+':
    case U'-':
    case U'@':
    case U'\uFF1D':
    case U'\uFF0B':
    case U'\uFF0D':
    case U'\uFF20':
        return true;
    default:
        return false;
    }
}

} // namespace

bool looksLikeFormula(std::string_view value) {
    if (value.empty()) return false;
    // A tab or CR first is guarded whatever follows (some spreadsheets act on them alone).
    if (value.front() == '\t' || value.front() == '\r') return true;
    for (std::size_t at = 0; at < value.size();) {
        const auto [c, length] = codePointAt(value, at);
        if (startsFormula(c)) return true;
        if (!skippedBeforeFormula(c)) return false;
        at += length;
    }
    return false;
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

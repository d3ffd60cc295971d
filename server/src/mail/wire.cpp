#include "mail/wire.h"

#include <Poco/UUIDGenerator.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace storefront::mail {

namespace {

constexpr std::size_t kHeaderWidth = 78;  // RFC 5322 2.1.1: SHOULD be no more than 78
constexpr std::size_t kEncodedWordMax = 75; // RFC 2047 2
constexpr std::size_t kQpWidth = 76;      // RFC 2045 6.7 (5)
const std::string kWordStart = "=?UTF-8?B?";
const std::string kWordEnd = "?=";

std::string base64(const std::string& bytes) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                           static_cast<unsigned char>(bytes[i + 2]);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    if (i < bytes.size()) {
        unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

bool isAtext(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool isPrintableAscii(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

std::vector<std::string> splitOnSpaces(const std::string& s) {
    std::vector<std::string> words;
    std::size_t start = 0;
    while (true) {
        auto space = s.find(' ', start);
        words.push_back(s.substr(start, space - start));
        if (space == std::string::npos) break;
        start = space + 1;
    }
    return words;
}

// Writes one header field, folding (CRLF + space) before a token that would pass 78 columns.
class HeaderWriter {
public:
    explicit HeaderWriter(const std::string& name) : out_(name + ":"), column_(out_.size()) {}
    // Room left on the current line for a token after its leading space.
    std::size_t room() const { return column_ + 1 >= kHeaderWidth ? 0 : kHeaderWidth - column_ - 1; }
    void fold() {
        out_ += "\r\n";
        column_ = 0;
        lineTokens_ = 0;
    }
    void token(const std::string& text) {
        if (lineTokens_ > 0 && text.size() > room()) fold();
        out_ += ' ';
        out_ += text;
        column_ += 1 + text.size();
        ++lineTokens_;
    }
    // `text` as UTF-8 base64 encoded-words, each as long as the line allows (at most 75), never
    // splitting a UTF-8 sequence; whitespace between adjacent encoded-words is not part of the text.
    void encodedWords(const std::string& text) {
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t overhead = kWordStart.size() + kWordEnd.size();
            std::size_t width = std::min(kEncodedWordMax, room());
            if (width < overhead + 8) {
                fold();
                width = std::min(kEncodedWordMax, room());
            }
            std::size_t bytes = (width - overhead) / 4 * 3;
            std::size_t end = std::min(text.size(), at + bytes);
            // Back off to the start of a UTF-8 sequence (never below one byte of progress).
            while (end < text.size() && end > at + 1 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
            out_ += ' ';
            const std::string word = kWordStart + base64(text.substr(at, end - at)) + kWordEnd;
            out_ += word;
            column_ += 1 + word.size();
            ++lineTokens_;
            at = end;
        }
    }
    std::string finish() { return out_ + "\r\n"; }

private:
    std::string out_;
    std::size_t column_;
    int lineTokens_ = 0;
};

// Plain words when the text is printable ASCII in single-spaced words that each fit a line and
// cannot be mistaken for an encoded-word; else encoded-words.
bool fitsAsPlainWords(const std::string& text, bool phrase) {
    if (text.empty() || !isPrintableAscii(text) || text.find("=?") != std::string::npos) return false;
    for (const auto& word : splitOnSpaces(text)) {
        if (word.empty() || word.size() > kHeaderWidth - 2) return false; // leading, trailing or double space
        if (phrase && !std::all_of(word.begin(), word.end(), isAtext)) return false;
    }
    return true;
}

void requireSafe(const std::string& value) {
    if (!isSafeHeaderValue(value)) throw std::invalid_argument("mail header contains control characters");
}

void appendQpLine(std::string& out, const std::string& line) {
    static const char* hex = "0123456789ABCDEF";
    std::string current;
    auto emit = [&](const std::string& unit) {
        if (current.size() + unit.size() > kQpWidth - 1) { // leave room for the soft break "="
            out += current + "=\r\n";
            current.clear();
        }
        current += unit;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        const bool last = i + 1 == line.size();
        const bool blank = c == ' ' || c == '\t';
        // "From " at a line start is mangled by mbox writers; encode its F.
        const bool fromLine = i == 0 && line.compare(0, 5, "From ") == 0;
        if ((c >= 33 && c <= 126 && c != '=' && !fromLine) || (blank && !last)) emit(std::string(1, static_cast<char>(c)));
        else emit(std::string{'=', hex[c >> 4], hex[c & 15]});
    }
    out += current;
}

} // namespace

Mailbox parseMailbox(const std::string& text) {
    requireSafe(text);
    Mailbox m;
    auto open = text.rfind('<');
    if (open == std::string::npos) {
        m.address = text;
    } else {
        if (text.empty() || text.back() != '>') throw std::invalid_argument("mailbox '" + text + "' has no closing '>'");
        m.address = text.substr(open + 1, text.size() - open - 2);
        std::string name = text.substr(0, open);
        while (!name.empty() && name.back() == ' ') name.pop_back();
        while (!name.empty() && name.front() == ' ') name.erase(0, 1);
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
            std::string unquoted;
            for (std::size_t i = 1; i + 1 < name.size(); ++i) {
                if (name[i] == '\\' && i + 2 < name.size()) ++i;
                unquoted += name[i];
            }
            name = unquoted;
        }
        m.displayName = name;
    }
    if (!isValidEmailAddress(m.address) ||
        !std::all_of(m.address.begin(), m.address.end(), [](char c) { return c > 0x20 && c < 0x7f; }))
        throw std::invalid_argument("'" + m.address + "' is not a valid ASCII mail address");
    return m;
}

std::string domainOf(const std::string& address) {
    auto at = address.rfind('@');
    return at == std::string::npos ? std::string() : address.substr(at + 1);
}

std::string rfc5322Date(std::time_t when) {
    static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::tm tm{};
    gmtime_r(&when, &tm);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
                  months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buffer;
}

std::string newMessageId(const std::string& domain) {
    auto uuid = Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
    uuid.erase(std::remove(uuid.begin(), uuid.end(), '-'), uuid.end());
    return "<" + uuid + "@" + domain + ">";
}

std::string messageIdFor(const std::string& key, const std::string& domain) {
    std::string left;
    for (const char c : key)
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) left.push_back(c);
    if (left.empty()) return newMessageId(domain);
    return "<" + left + "@" + domain + ">";
}

std::string unstructuredHeader(const std::string& name, const std::string& value) {
    requireSafe(value);
    HeaderWriter w(name);
    if (fitsAsPlainWords(value, false)) {
        for (const auto& word : splitOnSpaces(value)) w.token(word);
    } else if (!value.empty()) {
        w.encodedWords(value);
    }
    return w.finish();
}

std::string mailboxHeader(const std::string& name, const Mailbox& mailbox) {
    requireSafe(mailbox.displayName);
    requireSafe(mailbox.address);
    HeaderWriter w(name);
    if (fitsAsPlainWords(mailbox.displayName, true)) {
        for (const auto& word : splitOnSpaces(mailbox.displayName)) w.token(word);
    } else if (!mailbox.displayName.empty()) {
        w.encodedWords(mailbox.displayName);
    }
    w.token(mailbox.displayName.empty() ? mailbox.address : "<" + mailbox.address + ">");
    return w.finish();
}

std::string quotedPrintable(const std::string& text) {
    std::string out;
    std::string line;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            appendQpLine(out, line);
            out += "\r\n";
            line.clear();
        } else {
            line += c;
        }
    }
    if (!line.empty()) {
        appendQpLine(out, line);
        out += "=\r\n"; // the text does not end a line: a soft break keeps it so
    }
    return out;
}

std::string composeMessage(const MailMessage& message, const std::string& from, std::time_t now, const std::string& messageId,
                           const Branding& brand) {
    requireSafe(message.subject);
    requireSafe(messageId);
    const Mailbox sender = parseMailbox(from);
    const Mailbox to = parseMailbox(message.to);
    std::string out;
    out += "Date: " + rfc5322Date(now) + "\r\n";
    out += mailboxHeader("From", sender);
    out += mailboxHeader("To", to);
    if (!message.replyTo.empty()) out += mailboxHeader("Reply-To", parseMailbox(message.replyTo));
    out += unstructuredHeader("Subject", message.subject);
    out += "Message-ID: " + messageId + "\r\n";
    out += "MIME-Version: 1.0\r\n";
    // "=_" never occurs in quoted-printable text (every "=" there is "=XX" or a soft break), so
    // the boundary cannot appear inside a part. Made from the Message-ID: the same on every attempt.
    std::string boundary = "=_alt_";
    for (const char c : messageId)
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 && boundary.size() < 46) boundary += c;
    out += "Content-Type: multipart/alternative;\r\n boundary=\"" + boundary + "\"\r\n";
    out += "\r\n";
    // Each part's own text ends in CRLF; the CRLF before a delimiter belongs to the delimiter.
    auto part = [&](const char* type, const std::string& content) {
        out += "--" + boundary + "\r\n";
        out += std::string("Content-Type: ") + type + "; charset=UTF-8\r\n";
        out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
        out += quotedPrintable(content);
        out += "\r\n";
    };
    part("text/plain", message.text);
    part("text/html", renderHtml(message, brand));
    out += "--" + boundary + "--\r\n";
    return out;
}

std::string dotStuff(const std::string& data) {
    std::string out;
    out.reserve(data.size() + data.size() / 64 + 8);
    bool lineStart = true;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (lineStart && data[i] == '.') out += '.';
        out += data[i];
        lineStart = data[i] == '\n';
    }
    if (out.size() < 2 || out.compare(out.size() - 2, 2, "\r\n") != 0) out += "\r\n";
    out += ".\r\n";
    return out;
}

} // namespace storefront::mail

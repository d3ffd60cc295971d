#include "common/text.h"

#include <Poco/URI.h>
#include <Poco/UUID.h>

#include <algorithm>

namespace storefront::common {

std::size_t codePoints(std::string_view utf8) {
    return static_cast<std::size_t>(
        std::count_if(utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string encodeUriComponent(const std::string& value) {
    std::string out;
    Poco::URI::encode(value, "!#$&'()*+,/:;=?@[]", out);
    return out;
}

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

bool isOneLine(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return false; // C0 (CR, LF, NUL, tab...) and DEL
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (c == 0xC2 && next >= 0x80 && next <= 0x9F) return false; // C1: U+0080 to U+009F (NEL...)
        if (c == 0xE2 && next == 0x80 && i + 2 < text.size()) {
            const auto third = static_cast<unsigned char>(text[i + 2]);
            if (third == 0xA8 || third == 0xA9) return false; // U+2028 line and U+2029 paragraph separators
        }
    }
    return true;
}

bool isUuid(const std::string& text) {
    Poco::UUID uuid;
    return text.size() == 36 && uuid.tryParse(text);
}

} // namespace storefront::common

#include "catalog/slug.h"

namespace storefront::catalog {
namespace {

// Byte length of the whitespace character starting at s[i], or 0 if there is none.
std::size_t whitespaceAt(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
    auto byteIs = [&](std::size_t k, unsigned char v) { return i + k < s.size() && static_cast<unsigned char>(s[i + k]) == v; };
    if (c == 0xC2 && byteIs(1, 0xA0)) return 2; // U+00A0
    if (c == 0xE1 && byteIs(1, 0x9A) && byteIs(2, 0x80)) return 3; // U+1680
    if (c == 0xE2 && byteIs(1, 0x80) && i + 2 < s.size()) {
        const auto t = static_cast<unsigned char>(s[i + 2]);
        if ((t >= 0x80 && t <= 0x8A) || t == 0xA8 || t == 0xA9 || t == 0xAF) return 3; // U+2000-200A, 2028, 2029, 202F
    }
    if (c == 0xE2 && byteIs(1, 0x81) && byteIs(2, 0x9F)) return 3; // U+205F
    if (c == 0xE3 && byteIs(1, 0x80) && byteIs(2, 0x80)) return 3; // U+3000
    if (c == 0xEF && byteIs(1, 0xBB) && byteIs(2, 0xBF)) return 3; // U+FEFF
    return 0;
}

} // namespace

std::string normalizeSlug(std::string_view input) {
    std::string out;
    out.reserve(input.size());
    bool pendingSeparator = false;
    for (std::size_t i = 0; i < input.size();) {
        if (const std::size_t ws = whitespaceAt(input, i)) {
            pendingSeparator = !out.empty(); // leading whitespace is dropped
            i += ws;
            continue;
        }
        if (pendingSeparator) out += '-';
        pendingSeparator = false; // trailing whitespace never gets its separator written
        char c = input[i++];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        out += c;
    }
    return out;
}

bool isValidSlug(std::string_view slug) {
    if (slug.empty() || slug.size() > kMaxSlugLength) return false;
    if (slug.front() == '-' || slug.back() == '-') return false;
    for (const char c : slug)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

} // namespace storefront::catalog

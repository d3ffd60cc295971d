#include "auth/totp.h"

#include "auth/secrets.h"
#include "common/text.h"

#include <Poco/HMACEngine.h>
#include <Poco/SHA1Engine.h>

#include <qrencode.h>
#include <sodium.h>

#include <memory>
#include <stdexcept>

namespace storefront::auth {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

} // namespace

std::string base32Encode(std::string_view bytes) {
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 5) {
            out += kAlphabet[(buffer >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0) out += kAlphabet[(buffer << (5 - bits)) & 31];
    return out;
}

std::optional<std::string> base32Decode(std::string_view text) {
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (char ch : text) {
        if (ch == '=' || ch == ' ') continue;
        char c = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
        const char* at = std::char_traits<char>::find(kAlphabet, 32, c);
        if (!at) return std::nullopt;
        buffer = (buffer << 5) | static_cast<unsigned>(at - kAlphabet);
        bits += 5;
        if (bits >= 8) {
            out += static_cast<char>((buffer >> (bits - 8)) & 0xFF);
            bits -= 8;
        }
    }
    return out;
}

std::string newTotpSecret() {
    ensureSodium();
    std::string raw(20, '\0');
    randombytes_buf(raw.data(), raw.size());
    return base32Encode(raw);
}

std::string totpCode(const std::string& base32Secret, std::int64_t step) {
    auto key = base32Decode(base32Secret);
    if (!key) throw std::invalid_argument("TOTP secret is not base32");
    Poco::HMACEngine<Poco::SHA1Engine> hmac(*key);
    unsigned char counter[8];
    auto value = static_cast<std::uint64_t>(step);
    for (int i = 7; i >= 0; --i) {
        counter[i] = static_cast<unsigned char>(value & 0xFF);
        value >>= 8;
    }
    hmac.update(counter, sizeof counter);
    const auto& digest = hmac.digest();
    const int offset = digest[digest.size() - 1] & 0x0F;
    const std::uint32_t binary = (static_cast<std::uint32_t>(digest[offset] & 0x7F) << 24) |
                                 (static_cast<std::uint32_t>(digest[offset + 1]) << 16) |
                                 (static_cast<std::uint32_t>(digest[offset + 2]) << 8) | digest[offset + 3];
    std::string code = std::to_string(binary % 1000000u);
    return std::string(kTotpDigits - code.size(), '0') + code;
}

std::optional<std::int64_t> matchTotp(const std::string& base32Secret, std::string_view code, std::int64_t unixSeconds) {
    if (code.size() != kTotpDigits) return std::nullopt;
    for (char c : code)
        if (c < '0' || c > '9') return std::nullopt;
    const std::int64_t now = unixSeconds / kTotpPeriodSeconds;
    std::optional<std::int64_t> matched;
    // Check every candidate so the time taken does not depend on which one matched.
    for (std::int64_t step = now - 1; step <= now + 1; ++step)
        if (constantTimeEquals(totpCode(base32Secret, step), code) && !matched) matched = step;
    return matched;
}

std::string otpauthUri(const std::string& issuer, const std::string& account, const std::string& base32Secret) {
    return "otpauth://totp/" + common::encodeUriComponent(issuer) + ":" + common::encodeUriComponent(account) + "?secret=" + base32Secret +
           "&issuer=" + common::encodeUriComponent(issuer) + "&algorithm=SHA1&digits=6&period=30";
}

std::string qrCodeSvg(const std::string& text) {
    std::unique_ptr<QRcode, decltype(&QRcode_free)> qr(QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1),
                                                        &QRcode_free);
    if (!qr) throw std::runtime_error("QR encoding failed");
    const int margin = 1, width = qr->width, size = width + 2 * margin;
    std::string path;
    for (int y = 0; y < width; ++y)
        for (int x = 0; x < width; ++x)
            if (qr->data[y * width + x] & 1)
                path += "M" + std::to_string(x + margin) + " " + std::to_string(y + margin) + "h1v1h-1z";
    const auto s = std::to_string(size);
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + s + " " + s + "\" shape-rendering=\"crispEdges\">"
           "<path fill=\"#ffffff\" d=\"M0 0h" + s + "v" + s + "H0z\"/><path fill=\"#000000\" d=\"" + path + "\"/></svg>";
}

} // namespace storefront::auth

// Stripe webhook signature checking and signing (see stripe_signature.h). HMAC and the
// constant-time comparison come from libsodium.
#include "billing/provider/stripe_signature.h"

#include <sodium.h>

#include <array>
#include <chrono>
#include <optional>
#include <stdexcept>

namespace storefront::billing {

namespace {

using Digest = std::array<unsigned char, crypto_auth_hmacsha256_BYTES>;

void ensureSodium() {
    static const int ready = sodium_init();
    if (ready < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

Digest hmac(std::string_view secret, std::string_view payload, std::int64_t timestamp) {
    ensureSodium();
    const std::string prefix = std::to_string(timestamp) + ".";
    crypto_auth_hmacsha256_state state;
    crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(secret.data()), secret.size());
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size());
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(payload.data()), payload.size());
    Digest digest{};
    crypto_auth_hmacsha256_final(&state, digest.data());
    sodium_memzero(&state, sizeof state);
    return digest;
}

// A v1 value as raw bytes: exactly 64 hex digits (either case), else nothing.
std::optional<Digest> fromHex(std::string_view hex) {
    if (hex.size() != 2 * std::tuple_size_v<Digest>) return std::nullopt;
    Digest out{};
    std::size_t length = 0;
    const char* end = nullptr;
    if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &length, &end) != 0 ||
        length != out.size() || end != hex.data() + hex.size())
        return std::nullopt;
    return out;
}

// Unix seconds written as 1 to 12 decimal digits (up to the year 33658), else nothing.
std::optional<std::int64_t> parseTimestamp(std::string_view text) {
    if (text.empty() || text.size() > 12) return std::nullopt;
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

struct ParsedHeader {
    std::int64_t timestamp = 0;
    std::vector<std::string_view> v1;
};

std::optional<ParsedHeader> parseHeader(std::string_view header) {
    ParsedHeader parsed;
    bool haveTimestamp = false;
    std::size_t start = 0;
    while (start <= header.size()) {
        auto comma = header.find(',', start);
        if (comma == std::string_view::npos) comma = header.size();
        const auto item = trim(header.substr(start, comma - start));
        start = comma + 1;
        const auto equals = item.find('=');
        if (equals == std::string_view::npos || equals == 0) return std::nullopt;
        const auto key = item.substr(0, equals);
        const auto value = item.substr(equals + 1);
        if (key == "t") {
            auto t = parseTimestamp(value);
            if (!t || haveTimestamp) return std::nullopt;
            parsed.timestamp = *t;
            haveTimestamp = true;
        } else if (key == "v1") {
            parsed.v1.push_back(value);
        }
        // Other schemes (v0 is Stripe's test-mode scheme) are ignored, as Stripe's libraries do.
    }
    if (!haveTimestamp) return std::nullopt;
    return parsed;
}

} // namespace

std::string_view describe(SignatureStatus status) {
    switch (status) {
    case SignatureStatus::Valid:
        return "valid";
    case SignatureStatus::MissingHeader:
        return "missing header";
    case SignatureStatus::Malformed:
        return "malformed header";
    case SignatureStatus::NoV1Signature:
        return "no v1 signature";
    case SignatureStatus::NoMatch:
        return "no matching signature";
    case SignatureStatus::StaleTimestamp:
        return "timestamp outside tolerance";
    case SignatureStatus::NoSecretConfigured:
        return "no webhook secret configured";
    }
    return "unknown";
}

SignatureCheck verifyStripeSignature(std::string_view header, std::string_view payload,
                                     const std::vector<std::string>& secrets, std::int64_t nowUnix,
                                     std::int64_t toleranceSeconds) {
    if (trim(header).empty()) return {SignatureStatus::MissingHeader, 0};
    const auto parsed = parseHeader(header);
    if (!parsed) return {SignatureStatus::Malformed, 0};
    if (parsed->v1.empty()) return {SignatureStatus::NoV1Signature, parsed->timestamp};
    if (secrets.empty()) return {SignatureStatus::NoSecretConfigured, parsed->timestamp};

    // Every candidate is compared in full (no early exit), so timing says nothing about which matched.
    bool matched = false;
    for (const auto& secret : secrets) {
        const auto expected = hmac(secret, payload, parsed->timestamp);
        for (const auto& candidate : parsed->v1) {
            const auto given = fromHex(candidate);
            if (given && sodium_memcmp(given->data(), expected.data(), expected.size()) == 0) matched = true;
        }
    }
    if (!matched) return {SignatureStatus::NoMatch, parsed->timestamp};

    // Checked after the signature, so that "stale" always means an authentic but old (or future) delivery.
    const std::int64_t age = nowUnix - parsed->timestamp;
    if (age > toleranceSeconds || -age > toleranceSeconds) return {SignatureStatus::StaleTimestamp, parsed->timestamp};
    return {SignatureStatus::Valid, parsed->timestamp};
}

SignatureCheck verifyStripeSignature(std::string_view header, std::string_view payload,
                                     const std::vector<std::string>& secrets) {
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    return verifyStripeSignature(header, payload, secrets, static_cast<std::int64_t>(now));
}

std::string stripeSignature(std::string_view secret, std::string_view payload, std::int64_t timestamp) {
    const auto digest = hmac(secret, payload, timestamp);
    char hex[2 * std::tuple_size_v<Digest> + 1];
    sodium_bin2hex(hex, sizeof hex, digest.data(), digest.size());
    return hex;
}

std::string stripeSignatureHeader(std::string_view secret, std::string_view payload, std::int64_t timestamp) {
    return "t=" + std::to_string(timestamp) + ",v1=" + stripeSignature(secret, payload, timestamp);
}

std::vector<std::string> splitWebhookSecrets(std::string_view configValue) {
    std::vector<std::string> secrets;
    std::size_t start = 0;
    while (start <= configValue.size()) {
        auto comma = configValue.find(',', start);
        if (comma == std::string_view::npos) comma = configValue.size();
        const auto secret = trim(configValue.substr(start, comma - start));
        if (!secret.empty()) secrets.emplace_back(secret);
        start = comma + 1;
    }
    return secrets;
}

} // namespace storefront::billing

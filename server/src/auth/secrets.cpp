#include "auth/secrets.h"

#include <sodium.h>

#include <stdexcept>
#include <vector>

namespace storefront::auth {

void ensureSodium() {
    static const int ready = sodium_init();
    if (ready < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::string base64Url(std::string_view bytes) {
    ensureSodium();
    constexpr int variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
    std::string out(sodium_base64_encoded_len(bytes.size(), variant), '\0');
    sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), variant);
    out.resize(std::char_traits<char>::length(out.c_str()));
    return out;
}

std::optional<std::string> fromBase64Url(std::string_view text) {
    ensureSodium();
    std::string out(text.size(), '\0');
    std::size_t length = 0;
    const char* end = nullptr;
    if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                          &length, &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        end != text.data() + text.size())
        return std::nullopt;
    out.resize(length);
    return out;
}

std::string randomToken(std::size_t bytes) {
    ensureSodium();
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    return base64Url(raw);
}

std::string sha256Hex(std::string_view data) {
    ensureSodium();
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
    char hex[crypto_hash_sha256_BYTES * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

namespace {

void deriveKey(unsigned char (&key)[crypto_secretbox_KEYBYTES], std::string_view material) {
    static constexpr unsigned char context[] = "storefront refresh-token seal";
    crypto_generichash(key, sizeof key, reinterpret_cast<const unsigned char*>(material.data()), material.size(), context,
                       sizeof context - 1);
}

} // namespace

std::string seal(std::string_view plain, std::string_view keyMaterial) {
    ensureSodium();
    unsigned char key[crypto_secretbox_KEYBYTES];
    deriveKey(key, keyMaterial);
    std::vector<unsigned char> out(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + plain.size());
    randombytes_buf(out.data(), crypto_secretbox_NONCEBYTES);
    crypto_secretbox_easy(out.data() + crypto_secretbox_NONCEBYTES, reinterpret_cast<const unsigned char*>(plain.data()),
                          plain.size(), out.data(), key);
    sodium_memzero(key, sizeof key);
    return base64Url(std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
}

std::optional<std::string> unseal(std::string_view sealed, std::string_view keyMaterial) {
    ensureSodium();
    auto raw = fromBase64Url(sealed);
    if (!raw || raw->size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) return std::nullopt;
    unsigned char key[crypto_secretbox_KEYBYTES];
    deriveKey(key, keyMaterial);
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw->data());
    std::string plain(raw->size() - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES, '\0');
    const int rc = crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(plain.data()), bytes + crypto_secretbox_NONCEBYTES,
                                              raw->size() - crypto_secretbox_NONCEBYTES, bytes, key);
    sodium_memzero(key, sizeof key);
    if (rc != 0) return std::nullopt;
    return plain;
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
    ensureSodium();
    if (a.size() != b.size()) return false;
    return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

} // namespace storefront::auth

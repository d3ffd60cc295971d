#include "auth/factor_secrets.h"

#include "auth/secrets.h"
#include "auth/settings.h"

#include <sodium.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace storefront::auth {

namespace {

constexpr std::string_view kPrefix = "v1:";
constexpr std::size_t kMinKeyChars = 32;
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == 32);

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    return text;
}

// The key file's text, creating it (32 random bytes, base64url, owner-only) when missing.
std::string keyFileText(const std::string& path) {
    namespace fs = std::filesystem;
    if (!fs::exists(path)) {
        auto parent = fs::path(path).parent_path();
        if (!parent.empty()) fs::create_directories(parent);
        const std::string text = randomToken(32) + "\n";
        const mode_t old = ::umask(077);
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << text;
            if (!out) {
                ::umask(old);
                throw std::runtime_error("cannot write the TOTP key file " + path +
                                         " (set STOREFRONT_TOTP_KEY or make the data folder writable)");
            }
        }
        ::umask(old);
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read the TOTP key file " + path);
    return trimmed(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

} // namespace

FactorSecrets::FactorSecrets(std::string_view keyMaterial) {
    ensureSodium();
    if (keyMaterial.size() < kMinKeyChars)
        throw std::runtime_error("the TOTP key must be at least 32 characters (STOREFRONT_TOTP_KEY or the key file)");
    static constexpr unsigned char context[] = "storefront totp-secret key v1";
    crypto_generichash(key_, sizeof key_, reinterpret_cast<const unsigned char*>(keyMaterial.data()), keyMaterial.size(),
                       context, sizeof context - 1);
}

FactorSecrets::~FactorSecrets() { sodium_memzero(key_, sizeof key_); }

FactorSecrets FactorSecrets::fromSettings(const Settings& settings) {
    if (!settings.totpKey.empty()) return FactorSecrets(settings.totpKey);
    if (settings.totpKeyFile.empty()) throw std::runtime_error("STOREFRONT_TOTP_KEY is not set and there is no data folder for a key file");
    const auto text = keyFileText(settings.totpKeyFile);
    if (text.size() < kMinKeyChars)
        throw std::runtime_error("the TOTP key file " + settings.totpKeyFile + " holds fewer than 32 characters");
    return FactorSecrets(text);
}

bool FactorSecrets::isSealed(std::string_view stored) { return stored.starts_with(kPrefix); }

std::string FactorSecrets::seal(const std::string& factorId, std::string_view secret) const {
    ensureSodium();
    constexpr std::size_t nonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
    std::vector<unsigned char> out(nonceBytes + secret.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES);
    randombytes_buf(out.data(), nonceBytes);
    unsigned long long written = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + nonceBytes, &written,
                                               reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                                               reinterpret_cast<const unsigned char*>(factorId.data()), factorId.size(), nullptr,
                                               out.data(), key_);
    return std::string(kPrefix) +
           base64Url(std::string_view(reinterpret_cast<const char*>(out.data()), nonceBytes + static_cast<std::size_t>(written)));
}

std::optional<std::string> FactorSecrets::open(const std::string& factorId, std::string_view stored) const {
    if (!isSealed(stored)) return std::string(stored);
    ensureSodium();
    auto raw = fromBase64Url(stored.substr(kPrefix.size()));
    constexpr std::size_t nonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
    constexpr std::size_t tagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
    if (!raw || raw->size() < nonceBytes + tagBytes) return std::nullopt;
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw->data());
    std::string plain(raw->size() - nonceBytes - tagBytes, '\0');
    unsigned long long length = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(reinterpret_cast<unsigned char*>(plain.data()), &length, nullptr,
                                                   bytes + nonceBytes, raw->size() - nonceBytes,
                                                   reinterpret_cast<const unsigned char*>(factorId.data()), factorId.size(),
                                                   bytes, key_) != 0)
        return std::nullopt;
    plain.resize(static_cast<std::size_t>(length));
    return plain;
}

} // namespace storefront::auth

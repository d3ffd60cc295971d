#pragma once
// Random tokens, hashes of tokens and sealing, all through libsodium. Nothing here logs.
#include <optional>
#include <string>
#include <string_view>

namespace storefront::auth {

// Calls sodium_init() once; every function below does it for you.
void ensureSodium();

// `bytes` random bytes as unpadded base64url (24 bytes: 32 characters, 192 bits).
std::string randomToken(std::size_t bytes = 24);

// Lower-case hex SHA-256: the stored form of refresh and link tokens.
std::string sha256Hex(std::string_view data);

// Unpadded base64url of arbitrary bytes, and back (nullopt when not base64url).
std::string base64Url(std::string_view bytes);
std::optional<std::string> fromBase64Url(std::string_view text);

// Encrypts `plain` under a key derived from `keyMaterial` (XSalsa20-Poly1305): base64url text.
std::string seal(std::string_view plain, std::string_view keyMaterial);
// Opens what seal() made with the same key material; nullopt when it fails authentication.
std::optional<std::string> unseal(std::string_view sealed, std::string_view keyMaterial);

// Constant-time comparison of two equal-length strings (false when the lengths differ).
bool constantTimeEquals(std::string_view a, std::string_view b);

} // namespace storefront::auth

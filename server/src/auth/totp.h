#pragma once
// Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA1, 6 digits, 30-second steps,
// as every authenticator app expects, plus the otpauth:// URI and its QR code as SVG.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace storefront::auth {

inline constexpr int kTotpPeriodSeconds = 30;
inline constexpr int kTotpDigits = 6;

// RFC 4648 base32 without padding (what authenticator apps read), and back.
std::string base32Encode(std::string_view bytes);
std::optional<std::string> base32Decode(std::string_view text);

// A new 160-bit secret, base32.
std::string newTotpSecret();

// The code for one time step (unixSeconds / 30) of a base32 secret.
std::string totpCode(const std::string& base32Secret, std::int64_t step);

// The time step a code matches within one step of clock skew either way, or nullopt. Codes that are
// not exactly six digits never match.
std::optional<std::int64_t> matchTotp(const std::string& base32Secret, std::string_view code, std::int64_t unixSeconds);

// otpauth://totp/<issuer>:<account>?secret=...&issuer=...&algorithm=SHA1&digits=6&period=30
std::string otpauthUri(const std::string& issuer, const std::string& account, const std::string& base32Secret);

// The QR code of `text` (error correction level M, one module of margin) as a standalone SVG.
std::string qrCodeSvg(const std::string& text);

} // namespace storefront::auth

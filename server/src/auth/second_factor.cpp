#include "auth/second_factor.h"

#include "auth/secrets.h"
#include "auth/totp.h"

#include <Poco/Logger.h>
#include <sodium.h>

namespace storefront::auth {

namespace {

constexpr const char* kRecoveryAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford's base32, lower case
constexpr std::size_t kRecoveryCodeCharacters = 10;

} // namespace

std::vector<std::string> newRecoveryCodes(int count) {
    ensureSodium();
    std::vector<std::string> codes;
    for (int n = 0; n < count; ++n) {
        std::string code;
        for (std::size_t i = 0; i < kRecoveryCodeCharacters; ++i) {
            if (i == kRecoveryCodeCharacters / 2) code += '-';
            code += kRecoveryAlphabet[randombytes_uniform(32)];
        }
        codes.push_back(code);
    }
    return codes;
}

std::optional<std::string> normalizeRecoveryCode(const std::string& typed) {
    if (typed.size() > 32) return std::nullopt;
    std::string out;
    for (char c : typed) {
        if (c == '-' || c == ' ') continue;
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c == 'i' || c == 'l') c = '1';
        if (c == 'o') c = '0';
        if (std::string_view(kRecoveryAlphabet).find(c) == std::string_view::npos) return std::nullopt;
        out += c;
    }
    if (out.size() != kRecoveryCodeCharacters) return std::nullopt;
    return out;
}

std::string recoveryCodeHash(const std::string& normalized) { return sha256Hex("recovery-code:" + normalized); }

std::string openSecret(Context& ctx, const OwnFactor& factor) {
    auto secret = ctx.factorSecrets.open(factor.id, factor.secret);
    if (!secret) {
        Poco::Logger::get("auth").error("the TOTP secret of factor %s does not open with the configured key "
                                        "(STOREFRONT_TOTP_KEY or the key file changed?)", factor.id);
        throw http::ApiError(http::ErrorKind::Internal, "mfa_secret_unreadable", "The two-factor secret cannot be read. Contact support.");
    }
    return *secret;
}

CodeKind spendCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& code) {
    if (auto normalized = normalizeRecoveryCode(code))
        return ctx.recoveryCodes.spend(tx, userId, recoveryCodeHash(*normalized)) ? CodeKind::RecoveryCode : CodeKind::None;
    for (const auto& f : ctx.factors.list(tx.session(), userId)) {
        if (f.status != "verified" || f.factorType != "totp") continue;
        auto own = ctx.factors.own(tx.session(), userId, f.id);
        if (!own) continue;
        auto step = matchTotp(openSecret(ctx, *own), code, tx.clock().epochSeconds());
        if (step && ctx.factors.spendStep(tx, own->id, *step)) return CodeKind::Totp;
    }
    return CodeKind::None;
}

} // namespace storefront::auth

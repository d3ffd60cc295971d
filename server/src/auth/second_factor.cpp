#include "auth/second_factor.h"

#include "auth/notices.h"
#include "auth/secrets.h"
#include "auth/totp.h"

#include <Poco/Logger.h>
#include <sodium.h>

#include <algorithm>

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

CodeKind spendCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& code, const audit::Actor& actor) {
    refuseWhileLockedOut(ctx, tx, userId);
    if (auto normalized = normalizeRecoveryCode(code)) {
        if (ctx.recoveryCodes.spend(tx, userId, recoveryCodeHash(*normalized))) return CodeKind::RecoveryCode;
        countWrongCode(ctx, tx, userId, "recovery_code", actor);
        return CodeKind::None;
    }
    for (const auto& f : ctx.factors.list(tx.session(), userId)) {
        if (f.status != "verified" || f.factorType != "totp") continue;
        auto own = ctx.factors.own(tx.session(), userId, f.id);
        if (!own) continue;
        auto step = matchTotp(openSecret(ctx, *own), code, tx.clock().epochSeconds());
        if (step && ctx.factors.spendStep(tx, own->id, *step)) return CodeKind::Totp;
    }
    countWrongCode(ctx, tx, userId, "totp", actor);
    return CodeKind::None;
}

namespace {

// The times of the newest wrong codes inside the window, newest first (at most the limit).
std::vector<std::string> wrongCodesInWindow(Context& ctx, db::Tx& tx, const std::string& userId) {
    const auto since = tx.clock().timestampAfter(-ctx.settings.mfaAccountWindowSeconds);
    return ctx.factors.wrongCodesSince(tx, userId, since, ctx.settings.mfaAccountLimit);
}

} // namespace

void refuseWhileLockedOut(Context& ctx, db::Tx& tx, const std::string& userId) {
    ctx.users.lockPresence(tx, userId, UserRepository::RowLock::Exclusive);
    const auto recent = wrongCodesInWindow(ctx, tx, userId);
    if (static_cast<int>(recent.size()) < ctx.settings.mfaAccountLimit) return;
    // Open again when the oldest of the last `limit` wrong codes leaves the window.
    const long long reopens = unixSeconds(recent.back()) + ctx.settings.mfaAccountWindowSeconds;
    const int retryAfter = static_cast<int>(std::max<long long>(1, reopens - tx.clock().epochSeconds()));
    const int minutes = (retryAfter + 59) / 60;
    http::ApiError e(http::ErrorKind::RateLimited, "over_request_rate_limit",
                     "Too many wrong two-factor codes. Try again in " + std::to_string(minutes) +
                         (minutes == 1 ? " minute." : " minutes."));
    e.retryAfterSeconds = retryAfter;
    throw e;
}

void countWrongCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& method, const audit::Actor& actor) {
    ctx.factors.insertWrongCode(tx, userId, method);
    // Only the code that reaches the limit tells anyone: later ones are refused before they count.
    if (static_cast<int>(wrongCodesInWindow(ctx, tx, userId).size()) != ctx.settings.mfaAccountLimit) return;
    recordEvent(tx, "mfa_wrong_codes_limit", userId, actor,
                {{"wrong_codes", ctx.settings.mfaAccountLimit}, {"window_seconds", ctx.settings.mfaAccountWindowSeconds}});
    auto user = ctx.users.find(tx.session(), userId);
    if (user && user->email) sendNotice(ctx, tx, Notice::WrongCodes, *user->email);
}

} // namespace storefront::auth

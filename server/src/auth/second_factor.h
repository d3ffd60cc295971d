#pragma once
// The second factor's codes, wherever one is asked for (the sign-in step, removing a factor,
// closing the account): a TOTP code from a verified authenticator, or one of the user's recovery
// codes (ten single-use codes "xxxxx-xxxxx", stored hashed).
#include "auth/context.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::auth {

constexpr int kRecoveryCodeCount = 10;

// `count` new codes: ten characters of Crockford's base32 (lower case, 50 random bits) in two
// groups of five, "k3x9p-2mv7q".
std::vector<std::string> newRecoveryCodes(int count = kRecoveryCodeCount);
// The stored form of what a person typed: lower case, hyphens and spaces dropped, Crockford's
// look-alikes read as the digits they stand for (i, l: 1; o: 0); nullopt when it is not a
// recovery code (a TOTP code never is).
std::optional<std::string> normalizeRecoveryCode(const std::string& typed);
// SHA-256 of the normalised code: what mfa_recovery_codes keeps.
std::string recoveryCodeHash(const std::string& normalized);

enum class CodeKind { None, Totp, RecoveryCode };

// Spends `code` in `tx`: a TOTP code of one of the user's verified factors (newer than the step
// that factor last accepted), or an unused recovery code of the user. None when neither matches.
CodeKind spendCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& code);

// The factor's TOTP secret, opened; 500 mfa_secret_unreadable (and an error in the log) when it
// does not open under the configured key.
std::string openSecret(Context& ctx, const OwnFactor& factor);

} // namespace storefront::auth

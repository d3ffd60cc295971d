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
// that factor last accepted), or an unused recovery code of the user. None when neither matches,
// and the wrong code is counted against the account (countWrongCode); 429 while the account is
// locked out (refuseWhileLockedOut), before the code is looked at. The caller commits `tx` on None
// so the count stays.
CodeKind spendCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& code, const audit::Actor& actor);

// Wrong second-factor codes per account (docs/auth.md, "Two-factor guessing"): whichever challenge,
// session or server they came through, Settings::mfaAccountLimit wrong codes within
// Settings::mfaAccountWindowSeconds close the account's second factor until the oldest of them
// leaves the window.
//
// Holds the user's row for the rest of `tx` (FOR UPDATE on PostgreSQL; SQLite has one writer), so
// parallel guesses are checked and counted one after another; then 429 over_request_rate_limit
// with Retry-After while the account is locked out. Call it first in the write that checks a code.
void refuseWhileLockedOut(Context& ctx, db::Tx& tx, const std::string& userId);
// Counts one wrong code (`method`: "totp" or "recovery_code"). The code that reaches the limit
// queues the owner's security notice and records mfa_wrong_codes_limit in the audit log.
void countWrongCode(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& method, const audit::Actor& actor);

// The factor's TOTP secret, opened; 500 mfa_secret_unreadable (and an error in the log) when it
// does not open under the configured key.
std::string openSecret(Context& ctx, const OwnFactor& factor);

} // namespace storefront::auth

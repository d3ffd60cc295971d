#pragma once
// Proof that the person at the keyboard is the account's owner before an irreversible change
// (closing the account): the current password, and a fresh TOTP code when the user has a verified
// factor. Throttled like sign-in (per account), so a stolen session cannot guess the password.
#include "auth/context.h"

#include <optional>
#include <string>

namespace storefront::auth {

class Reauthentication {
public:
    explicit Reauthentication(Context& ctx) : ctx_(ctx) {}

    // Returns normally when both hold. Throws ApiError:
    //   422 validation_failed (password missing; code missing while a verified factor exists),
    //   400 invalid_credentials (wrong password), 400 mfa_verification_failed (wrong or spent
    //   code), 429 over_request_rate_limit, 404 user_not_found (no such live user).
    // A failed attempt is recorded in the audit log (never the password or the code).
    void confirm(const std::string& userId, const std::optional<std::string>& password,
                 const std::optional<std::string>& code, const ClientInfo& client);

    // Whether the user has a verified TOTP factor (the close form then asks for a code).
    bool hasVerifiedFactor(Poco::Data::Session& s, const std::string& userId);

private:
    Context& ctx_;
};

} // namespace storefront::auth

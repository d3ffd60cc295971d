#pragma once
// Recovery codes (GET and POST /api/v1/account/recovery-codes): ten single-use codes, shown once
// when made, that stand in for an authenticator code at the two-factor step.
#include "auth/context.h"

#include <nlohmann/json.hpp>

namespace storefront::auth {

class RecoveryCodes {
public:
    explicit RecoveryCodes(Context& ctx) : ctx_(ctx) {}

    // A new set (the old one stops working): {codes: [...10], remaining: 10, created_at}. The
    // session must be at aal2 (403 insufficient_aal): only a user with a verified factor has one.
    nlohmann::json generate(const Principal& principal, const ClientInfo& client);
    // {remaining, created_at}: created_at null when the user has never made a set.
    nlohmann::json status(const Principal& principal);

private:
    Context& ctx_;
};

} // namespace storefront::auth

#pragma once
// The staff's actions on a customer's account (/admin/customers, docs/backoffice.md "Customers"):
// resend the confirmation email, send a password recovery email, reset two-factor, grant or revoke
// the admin role. Each is one write with its audit entry; staff never see or set a password. A
// closed account (users.deleted_at set) answers 409 customer_closed, an unknown id 404.
#include "auth/context.h"

#include <cstddef>
#include <string>

namespace storefront::auth {

class CustomerAdmin {
public:
    // The longest reason a staff member may give (trimmed, in characters).
    static constexpr std::size_t kMaxReasonChars = 500;

    explicit CustomerAdmin(Context& ctx) : ctx_(ctx) {}

    // The sign-up confirmation (an invitation for an invited user who has no password yet), as
    // GoTrue's /resend sends it. 409 already_confirmed when the address is confirmed.
    void resendConfirmation(const audit::Actor& actor, const std::string& userId);
    // The password recovery email, as /auth/v1/recover sends it.
    void sendRecovery(const audit::Actor& actor, const std::string& userId);
    // Removes every factor and ends the user's aal2 sessions; `reason` (trimmed, required) is
    // audited. 409 no_factors when there is none.
    void resetFactors(const audit::Actor& actor, const std::string& userId, const std::string& reason);
    // Idempotent: granting a held role or revoking an absent one changes (and audits) nothing.
    // Revoking the last admin is 409 last_admin (UserRepository::countAdmins).
    void grantAdmin(const audit::Actor& actor, const std::string& userId);
    void revokeAdmin(const audit::Actor& actor, const std::string& userId);

private:
    // The open account's row in `tx`: 404 customer_not_found, 409 customer_closed.
    UserRecord openAccount(db::Tx& tx, const std::string& userId);

    Context& ctx_;
};

} // namespace storefront::auth

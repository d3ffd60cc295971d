#pragma once
// Security notices: the mail an account's owner gets when something that protects the account
// changes (as GitHub and Supabase Auth send them). Each is queued in the change's own transaction,
// so it goes out exactly when the change commits, once.
#include "auth/context.h"

#include <string>

namespace storefront::auth {

enum class Notice {
    PasswordChanged,        // password_changed
    EmailChanged,           // email_changed: to the old address
    FactorAdded,            // factor_added
    FactorRemoved,          // factor_removed
    TwoFactorResetByStaff,  // two_factor_reset_by_staff
    WrongCodes,             // mfa_wrong_codes: the account's limit of wrong two-factor codes was reached
};

// Queues the notice to `to` (nothing when `to` is empty: a closed or address-less account).
// `detail` is the new address for EmailChanged, the factor's name for the factor notices.
void sendNotice(Context& ctx, db::Tx& tx, Notice notice, const std::string& to, const std::string& detail = "");

} // namespace storefront::auth

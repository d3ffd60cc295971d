#pragma once
// One-time email links (confirm sign-up, recovery, invitation, email change): creating one,
// mailing it, and where it may send the browser afterwards.
#include "auth/context.h"

#include <optional>
#include <string>

namespace storefront::auth {

// The link a one-time token becomes: what the email carries and generate_link returns.
struct ActionLink {
    std::string url;
    std::string token;
    std::string type;
    std::string redirectTo;
};

// Where a link may send the browser: redirect_to when it is on our origin, else home.
std::string safeRedirect(const std::string& publicUrl, const std::optional<std::string>& redirectTo);

// A new link of `type` for the user (older ones of that type are spent).
ActionLink createLink(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& type, const std::string& sendTo,
                      const std::optional<std::string>& redirectTo);
// Queues the link's email to `to`.
void sendLink(Context& ctx, db::Tx& tx, const ActionLink& link, const std::string& to);

} // namespace storefront::auth

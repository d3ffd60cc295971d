#include "auth/links.h"

#include "auth/secrets.h"
#include "common/text.h"
#include "mail/mail_message.h"

#include <Poco/URI.h>

namespace storefront::auth {

std::string safeRedirect(const std::string& publicUrl, const std::optional<std::string>& redirectTo) {
    const std::string home = publicUrl + "/";
    if (!redirectTo || redirectTo->empty()) return home;
    try {
        Poco::URI target(*redirectTo), site(publicUrl);
        if (target.getScheme() == site.getScheme() && target.getHost() == site.getHost() && target.getPort() == site.getPort() &&
            target.getFragment().empty())
            return *redirectTo;
    } catch (const Poco::Exception&) { // not a URL: home
    }
    return home;
}

ActionLink createLink(Context& ctx, db::Tx& tx, const std::string& userId, const std::string& type, const std::string& sendTo,
                      const std::optional<std::string>& redirectTo) {
    ActionLink link;
    link.token = randomToken();
    link.type = type;
    link.redirectTo = safeRedirect(ctx.publicUrl, redirectTo);
    ctx.users.spendLinks(tx, userId, type);
    ctx.users.insertLink(tx, userId, type, sha256Hex(link.token), sendTo, tx.clock().timestampAfter(ctx.settings.linkExpirySeconds));
    link.url = ctx.publicUrl + "/auth/v1/verify?token=" + link.token + "&type=" + type +
               "&redirect_to=" + common::encodeUriComponent(link.redirectTo);
    ctx.users.markLinkSent(tx, userId, type);
    return link;
}

void sendLink(Context& ctx, db::Tx& tx, const ActionLink& link, const std::string& to) {
    const auto& config_ = ctx.settings;
    mail::MailMessage m;
    m.to = to;
    const std::string hours = std::to_string(config_.linkExpirySeconds / 3600);
    const std::string expiry = "The link works once and expires in " + (config_.linkExpirySeconds >= 3600 ? hours + " hours" : "an hour") + ".";
    if (link.type == "signup") {
        m.kind = "auth_confirm_signup";
        m.subject = "Confirm your " + config_.siteName + " account";
        m.text = "Welcome to " + config_.siteName + ".\n\nConfirm your email address to finish creating your account:\n\n" + link.url +
                 "\n\n" + expiry + " If you did not sign up, you can ignore this email.\n";
    } else if (link.type == "recovery") {
        m.kind = "auth_recovery";
        m.subject = "Reset your " + config_.siteName + " password";
        m.text = "Someone asked to reset the password of your " + config_.siteName + " account.\n\nChoose a new password here:\n\n" +
                 link.url + "\n\n" + expiry + " If it was not you, you can ignore this email; your password stays as it is.\n";
    } else if (link.type == "invite") {
        m.kind = "auth_invite";
        m.subject = "You have been invited to " + config_.siteName;
        m.text = "You have been invited to create a " + config_.siteName + " account.\n\nAccept the invitation and choose a password:\n\n" +
                 link.url + "\n\n" + expiry + "\n";
    } else {
        m.kind = "auth_email_change";
        m.subject = "Confirm your new email address";
        m.text = "Confirm this address as the new email of your " + config_.siteName + " account:\n\n" + link.url + "\n\n" + expiry +
                 " If you did not ask for this, you can ignore this email.\n";
    }
    ctx.outbox.enqueue(tx, m);
}

} // namespace storefront::auth

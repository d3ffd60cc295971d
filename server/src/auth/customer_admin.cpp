#include "auth/customer_admin.h"

#include "auth/links.h"
#include "auth/notices.h"

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

ApiError conflict(const char* code, const std::string& message) { return ApiError(ErrorKind::Conflict, code, message); }

} // namespace

UserRecord CustomerAdmin::openAccount(db::Tx& tx, const std::string& userId) {
    switch (ctx_.users.presence(tx.session(), userId)) {
    case UserRepository::Presence::Missing: throw ApiError::notFound("customer_not_found", "No such customer.");
    case UserRepository::Presence::Closed:
        throw conflict("customer_closed", "This account is closed: nothing can be changed on it.");
    case UserRepository::Presence::Open: break;
    }
    auto user = ctx_.users.find(tx.session(), userId);
    if (!user) throw ApiError::notFound("customer_not_found", "No such customer.");
    return *user;
}

void CustomerAdmin::resendConfirmation(const audit::Actor& actor, const std::string& userId) {
    ctx_.db.write([&](db::Tx& tx) {
        const auto user = openAccount(tx, userId);
        if (!user.email) throw conflict("no_email", "This customer has no email address.");
        if (user.emailConfirmedAt) throw conflict("already_confirmed", "This customer's email address is already confirmed.");
        // An invited person who has not chosen a password yet gets their invitation again.
        const std::string type = user.invitedAt && !user.encryptedPassword ? "invite" : "signup";
        sendLink(ctx_, tx, createLink(ctx_, tx, userId, type, *user.email, std::nullopt), *user.email);
        recordEvent(tx, "confirmation_resent", userId, actor, {{"type", type}});
    });
}

void CustomerAdmin::sendRecovery(const audit::Actor& actor, const std::string& userId) {
    ctx_.db.write([&](db::Tx& tx) {
        const auto user = openAccount(tx, userId);
        if (!user.email) throw conflict("no_email", "This customer has no email address.");
        sendLink(ctx_, tx, createLink(ctx_, tx, userId, "recovery", *user.email, std::nullopt), *user.email);
        recordEvent(tx, "recovery_sent", userId, actor);
    });
}

void CustomerAdmin::resetFactors(const audit::Actor& actor, const std::string& userId, const std::string& reason) {
    ctx_.db.write([&](db::Tx& tx) {
        const auto user = openAccount(tx, userId);
        const auto removed = ctx_.factors.removeAllOf(tx, userId);
        if (removed == 0) throw conflict("no_factors", "This customer has no two-factor authentication to reset.");
        ctx_.recoveryCodes.removeAllOf(tx, userId);
        const auto signedOut = ctx_.sessions.removeAal2ForUser(tx, userId);
        // Whoever talked staff into the reset must not also hold a link mailed before it.
        const auto voided = ctx_.users.voidPendingLinks(tx, userId);
        sendNotice(ctx_, tx, Notice::TwoFactorResetByStaff, user.email.value_or(""));
        recordEvent(tx, "mfa_factors_reset", userId, actor,
                    {{"reason", reason}, {"factors_removed", removed}, {"sessions_ended", signedOut}, {"links_voided", voided}});
    });
}

void CustomerAdmin::grantAdmin(const audit::Actor& actor, const std::string& userId) {
    ctx_.db.write([&](db::Tx& tx) {
        openAccount(tx, userId);
        if (!ctx_.users.roles(tx.session(), userId).empty()) return;
        ctx_.users.grantAdmin(tx, userId, actor.userId);
        recordEvent(tx, "role_granted", userId, actor, {{"role", "admin"}});
    });
}

void CustomerAdmin::revokeAdmin(const audit::Actor& actor, const std::string& userId) {
    ctx_.db.write([&](db::Tx& tx) {
        openAccount(tx, userId);
        if (ctx_.users.roles(tx.session(), userId).empty()) return;
        if (ctx_.users.countAdmins(tx) <= 1)
            throw conflict("last_admin",
                           "This is the last admin: grant the admin role to someone else first, so the shop keeps an admin.");
        ctx_.users.revokeAdmin(tx, userId);
        recordEvent(tx, "role_revoked", userId, actor, {{"role", "admin"}});
    });
}

} // namespace storefront::auth

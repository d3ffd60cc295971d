#include "auth/accounts.h"

#include "auth/links.h"
#include "auth/notices.h"
#include "auth/secrets.h"
#include "auth/user_json.h"
#include "common/text.h"
#include "http/api_error.h"

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

// Both limits are counted, then the request is refused if either is spent.
void requireWithinLimits(const db::RateLimiter::Decision& a, const db::RateLimiter::Decision& b, const char* code,
                         const char* message) {
    if (a.allowed && b.allowed) return;
    ApiError e(ErrorKind::RateLimited, code, message);
    e.retryAfterSeconds = std::max(a.retryAfterSeconds, b.retryAfterSeconds);
    throw e;
}

ApiError invalidCredentials() { return ApiError(ErrorKind::BadRequest, "invalid_credentials", "Invalid login credentials"); }

ApiError linkInvalid() { return ApiError(ErrorKind::Forbidden, "otp_expired", "Email link is invalid or has expired"); }


// The audit event of a spent link.
const char* linkEvent(const std::string& type) {
    if (type == "signup") return "user_confirmed";
    if (type == "recovery") return "recovery_link_used";
    if (type == "invite") return "invite_accepted";
    if (type == "magiclink") return "magiclink_used";
    return "email_changed";
}

// The amr method of the session a link starts.
const char* linkMethod(const std::string& type) {
    if (type == "recovery") return "recovery";
    if (type == "invite") return "invite";
    if (type == "magiclink") return "magiclink";
    return "otp";
}

} // namespace

std::string Accounts::safeRedirect(const std::optional<std::string>& redirectTo) const {
    return auth::safeRedirect(ctx_.publicUrl, redirectTo);
}

void Accounts::throttleEmail(const std::string& email, const ClientInfo& client) {
    const auto& settings = ctx_.settings;
    requireWithinLimits(ctx_.limiter.hit("auth-send:" + client.ip, settings.signupLimitPerAddress, settings.signinWindowSeconds),
                        ctx_.limiter.hit("auth-mail:" + email, settings.emailLimitPerAddress, settings.emailWindowSeconds),
                        "over_email_send_rate_limit", "Email rate limit exceeded. Please try again later.");
}

nlohmann::json Accounts::decoy(db::Tx& tx, const UserRecord& existing, const SignUpInput& input, const std::string& email,
                               bool mailAllowed) {
    if (!ctx_.settings.confirmEmail) throw ApiError(ErrorKind::Validation, "user_already_exists", "User already registered");
    // With confirmation on, the answer must not reveal that the address is taken: the same shape
    // as a new user (identities included: GoTrue's empty list would give it away), and the owner
    // gets mail (a new confirmation link if unconfirmed).
    if (!existing.emailConfirmedAt && mailAllowed)
        sendLink(ctx_, tx, createLink(ctx_, tx, existing.id, "signup", email, input.redirectTo), email);
    UserRecord decoy;
    decoy.id = db::newId();
    decoy.email = email;
    decoy.userMetadata = input.data;
    decoy.createdAt = decoy.updatedAt = tx.clock().nowTimestamp();
    decoy.confirmationSentAt = decoy.createdAt;
    return userJson(ctx_, tx.session(), decoy);
}

nlohmann::json Accounts::signUp(const SignUpInput& input, const ClientInfo& client) {
    const auto& settings = ctx_.settings;
    if (!settings.signupEnabled) throw ApiError(ErrorKind::Validation, "signup_disabled", "Signups not allowed for this instance");
    auto decision = ctx_.limiter.hit("auth-signup:" + client.ip, settings.signupLimitPerAddress, settings.signinWindowSeconds);
    if (!decision.allowed) {
        ApiError e(ErrorKind::RateLimited, "over_request_rate_limit", "Request rate limit reached");
        e.retryAfterSeconds = decision.retryAfterSeconds;
        throw e;
    }
    const std::string email = checkedEmail(input.email);
    checkFullName(input.data);
    const std::string hash = ctx_.hasher.hash(checkedNewPassword(settings, input.password));
    // Counted for every sign-up to this address, so repeating a sign-up cannot flood its inbox
    // with confirmation mail (the answer stays the same either way).
    const bool mailAllowed = ctx_.limiter.hit("auth-mail:" + email, settings.emailLimitPerAddress, settings.emailWindowSeconds).allowed;

    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        if (auto existing = ctx_.users.findByEmail(tx.session(), email)) {
            result = decoy(tx, *existing, input, email, mailAllowed);
            return;
        }
        const std::string id = ctx_.users.insert(tx, {email, hash, input.data, !settings.confirmEmail, std::nullopt});
        recordEvent(tx, "user_signedup", id, anonymousActor(client));
        if (!settings.confirmEmail) {
            result = sessions_.signIn(tx, *ctx_.users.find(tx.session(), id), "password", client);
            return;
        }
        sendLink(ctx_, tx, createLink(ctx_, tx, id, "signup", email, input.redirectTo), email);
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), id));
    });
    return result;
}

nlohmann::json Accounts::signIn(const SignInInput& input, const ClientInfo& client) {
    const auto& settings = ctx_.settings;
    if (!input.email || input.email->empty() || !input.password || input.password->empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "missing email or phone");
    const auto& password = *input.password;
    if (password.size() > kMaxPasswordBytes) throw invalidCredentials();
    const std::string normalized = normalizeEmail(*input.email);

    // Throttle by client address and by account before any hashing, so guessing costs the guesser.
    requireWithinLimits(ctx_.limiter.hit("auth-signin-ip:" + client.ip, settings.signinLimitPerAddress, settings.signinWindowSeconds),
                        ctx_.limiter.hit("auth-signin:" + normalized, settings.signinLimitPerAccount, settings.signinWindowSeconds),
                        "over_request_rate_limit", "Too many sign-in attempts. Please wait and try again.");

    std::optional<UserRecord> user;
    {
        auto s = ctx_.db.session();
        user = ctx_.users.findByEmail(s, normalized);
    }
    // Unknown address or no password yet: spend the same hashing time and give the same answer.
    if (!user || !user->encryptedPassword) {
        ctx_.hasher.verifyDummy(password);
        ctx_.db.write([&](db::Tx& tx) { recordEvent(tx, "login_failed", std::nullopt, anonymousActor(client), {{"reason", "unknown"}}); });
        throw invalidCredentials();
    }
    if (!ctx_.hasher.verify(*user->encryptedPassword, password)) {
        ctx_.db.write([&](db::Tx& tx) { recordEvent(tx, "login_failed", user->id, anonymousActor(client), {{"reason", "password"}}); });
        throw invalidCredentials();
    }
    if (user->banned(ctx_.db.clock())) throw ApiError(ErrorKind::BadRequest, "user_banned", "User is banned");
    if (settings.confirmEmail && !user->emailConfirmedAt) throw ApiError(ErrorKind::BadRequest, "email_not_confirmed", "Email not confirmed");

    std::optional<std::string> rehash;
    if (ctx_.hasher.needsRehash(*user->encryptedPassword)) rehash = ctx_.hasher.hash(password);
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        if (rehash) ctx_.users.setPassword(tx, user->id, *rehash);
        recordEvent(tx, "login", user->id, anonymousActor(client), {{"method", "password"}});
        result = sessions_.signIn(tx, *user, "password", client);
    });
    return result;
}

nlohmann::json Accounts::user(const Principal& principal) {
    auto s = ctx_.db.session();
    auto u = ctx_.users.find(s, principal.userId);
    if (!u) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    return userJson(ctx_, s, *u);
}

nlohmann::json Accounts::me(const Principal& principal) {
    auto s = ctx_.db.session();
    auto u = ctx_.users.find(s, principal.userId);
    if (!u) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    auto factors = nlohmann::json::array();
    for (const auto& f : ctx_.factors.list(s, principal.userId))
        factors.push_back({{"id", f.id}, {"friendly_name", f.friendlyName}, {"factor_type", f.factorType}, {"status", f.status}});
    nlohmann::json enterprise = nullptr;
    if (auto e = ctx_.users.enterpriseOf(s, principal.userId)) enterprise = {{"id", e->id}, {"name", e->name}, {"role", e->role}};
    auto name = ctx_.users.profileName(s, principal.userId);
    return {{"id", u->id},
            {"email", u->email ? nlohmann::json(*u->email) : nlohmann::json(nullptr)},
            {"full_name", name ? nlohmann::json(*name) : nlohmann::json(nullptr)},
            {"roles", ctx_.users.roles(s, principal.userId)},
            {"aal", principal.aal.empty() ? "aal1" : principal.aal},
            {"factors", factors},
            {"enterprise", enterprise},
            {"pending_email", u->emailChange ? nlohmann::json(*u->emailChange) : nlohmann::json(nullptr)}};
}

nlohmann::json Accounts::update(const Principal& principal, const UserChanges& changes, const ClientInfo& client) {
    if (changes.data) checkFullName(*changes.data);
    std::optional<std::string> password;
    if (changes.password) password = checkedNewPassword(ctx_.settings, changes.password);
    std::optional<std::string> newEmail;
    if (changes.email) newEmail = checkedEmail(changes.email);

    std::optional<UserRecord> current;
    {
        auto s = ctx_.db.session();
        current = ctx_.users.find(s, principal.userId);
    }
    if (!current) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    if (newEmail && current->email && *newEmail == normalizeEmail(*current->email)) newEmail.reset();
    if ((password || newEmail) && principal.hasVerifiedFactor && principal.aal != "aal2")
        throw ApiError(ErrorKind::Forbidden, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled.");
    std::optional<std::string> hash;
    if (password) {
        // GoTrue's secure password change: a user who has a password proves it, unless this
        // session began at an emailed link (recovery, confirmation), which already proved the inbox.
        if (current->encryptedPassword && !principal.linkSession) {
            if (!changes.currentPassword || changes.currentPassword->empty())
                throw ApiError(ErrorKind::BadRequest, "current_password_required", "Current password required when setting new password.");
            // Guessing it costs the guesser as a sign-in does (a stolen access token is no way round).
            auto decision = ctx_.limiter.hit("auth-current-password:" + principal.userId, ctx_.settings.signinLimitPerAccount,
                                             ctx_.settings.signinWindowSeconds);
            if (!decision.allowed) {
                ApiError e(ErrorKind::RateLimited, "over_request_rate_limit", "Too many attempts. Please wait and try again.");
                e.retryAfterSeconds = decision.retryAfterSeconds;
                throw e;
            }
            if (changes.currentPassword->size() > kMaxPasswordBytes ||
                !ctx_.hasher.verify(*current->encryptedPassword, *changes.currentPassword)) {
                ctx_.db.write([&](db::Tx& tx) {
                    recordEvent(tx, "password_change_failed", principal.userId, actorOf(principal, client), {{"reason", "current_password"}});
                });
                throw ApiError(ErrorKind::BadRequest, "current_password_invalid", "Your current password is not right.");
            }
        }
        if (current->encryptedPassword && ctx_.hasher.verify(*current->encryptedPassword, *password))
            throw ApiError(ErrorKind::Validation, "same_password", "New password should be different from the old password.");
        hash = ctx_.hasher.hash(*password);
    }
    if (newEmail) throttleEmail(*newEmail, client);

    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        applyChanges(tx, principal, *current, changes, newEmail, hash, client);
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), principal.userId));
    });
    return result;
}

void Accounts::applyChanges(db::Tx& tx, const Principal& principal, const UserRecord& current, const UserChanges& changes,
                            const std::optional<std::string>& newEmail, const std::optional<std::string>& hash,
                            const ClientInfo& client) {
    const auto actor = actorOf(principal, client);
    if (hash) {
        ctx_.users.setPassword(tx, principal.userId, *hash);
        // A new password ends every other session and every emailed link still waiting (recovery,
        // magic link, a pending email change).
        sessions_.endAll(tx, principal.userId, principal.sessionId);
        const auto voided = ctx_.users.voidPendingLinks(tx, principal.userId);
        recordEvent(tx, "password_changed", principal.userId, actor, {{"links_voided", voided}});
        if (current.email) sendNotice(ctx_, tx, Notice::PasswordChanged, *current.email);
    }
    if (changes.data) {
        auto merged = current.userMetadata;
        for (const auto& [key, value] : changes.data->items()) {
            if (value.is_null()) merged.erase(key);
            else merged[key] = value;
        }
        ctx_.users.setUserMetadata(tx, principal.userId, merged);
        if (changes.data->contains("full_name")) ctx_.users.setFullName(tx, principal.userId, fullNameOf(merged));
    }
    if (newEmail) {
        if (ctx_.users.findByEmail(tx.session(), *newEmail)) throw emailTaken();
        // GoTrue's secure email change, in every mode (STOREFRONT_AUTH_CONFIRM_EMAIL only governs
        // sign-up): the new address gets a link and nothing changes until it is opened.
        ctx_.users.setPendingEmail(tx, principal.userId, *newEmail);
        sendLink(ctx_, tx, createLink(ctx_, tx, principal.userId, "email_change", *newEmail, changes.redirectTo), *newEmail);
        recordEvent(tx, "email_change_requested", principal.userId, actor);
    }
}

void Accounts::recover(const std::optional<std::string>& rawEmail, const std::optional<std::string>& redirectTo,
                       const ClientInfo& client) {
    const std::string email = checkedEmail(rawEmail);
    throttleEmail(email, client);
    ctx_.db.write([&](db::Tx& tx) {
        auto user = ctx_.users.findByEmail(tx.session(), email);
        if (!user) return; // same answer either way
        sendLink(ctx_, tx, createLink(ctx_, tx, user->id, "recovery", email, redirectTo), email);
        recordEvent(tx, "recovery_requested", user->id, anonymousActor(client));
    });
}

std::optional<std::string> Accounts::spendLink(db::Tx& tx, const std::string& type, const std::string& token) {
    auto link = ctx_.users.findLiveLink(tx, sha256Hex(token), type);
    if (!link || !ctx_.users.spendLink(tx, link->id)) return std::nullopt;
    auto user = ctx_.users.find(tx.session(), link->userId);
    if (!user) return std::nullopt;
    if (type != "email_change") {
        ctx_.users.confirmEmail(tx, link->userId);
        return link->userId;
    }
    if (!user->emailChange || normalizeEmail(*user->emailChange) != link->relatesTo ||
        ctx_.users.findByEmail(tx.session(), link->relatesTo))
        return std::nullopt;
    ctx_.users.setEmail(tx, link->userId, link->relatesTo, true);
    // The old address hears of it: whoever changed it may not have been the owner.
    if (user->email) sendNotice(ctx_, tx, Notice::EmailChanged, *user->email, link->relatesTo);
    return link->userId;
}

nlohmann::json Accounts::verify(const std::string& requestedType, const std::string& token, const ClientInfo& client) {
    const std::string type = requestedType == "email" ? "signup" : requestedType;
    if (type != "signup" && type != "recovery" && type != "invite" && type != "email_change" && type != "magiclink")
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "Verify requires a verification type");
    if (token.empty() || token.size() > 256) throw linkInvalid();
    nlohmann::json result;
    bool spent = false;
    ctx_.db.write([&](db::Tx& tx) {
        auto userId = spendLink(tx, type, token);
        if (!userId) return; // a bad link: it is spent (when it existed), nothing else changes
        spent = true;
        recordEvent(tx, linkEvent(type), *userId, anonymousActor(client));
        result = sessions_.signIn(tx, *ctx_.users.find(tx.session(), *userId), linkMethod(type), client);
    });
    if (!spent) throw linkInvalid();
    return result;
}

} // namespace storefront::auth

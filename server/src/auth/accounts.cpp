// Sign-up, password sign-in, the signed-in user, and one-time email links (confirmation,
// recovery, invitation, email change).
#include "auth/auth_service.h"

#include "auth/fields.h"
#include "auth/secrets.h"
#include "common/text.h"
#include "db/row.h"
#include "http/api_error.h"
#include "mail/mail_message.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Nullable.h>
#include <Poco/URI.h>

using namespace Poco::Data::Keywords;
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

ApiError invalidCredentials() {
    return ApiError(ErrorKind::BadRequest, "invalid_credentials", "Invalid login credentials");
}

ApiError linkInvalid() {
    return ApiError(ErrorKind::Forbidden, "otp_expired", "Email link is invalid or has expired");
}

std::string fullName(const nlohmann::json& metadata) {
    auto it = metadata.find("full_name");
    return it != metadata.end() && it->is_string() ? it->get<std::string>() : "";
}

} // namespace

AuthService::AuthService(db::Database& db, const auth::Settings& config, std::string publicUrl, SigningKeys& keys,
                         PasswordHasher& hasher, db::RateLimiter& limiter, mail::Outbox& outbox)
    : db_(db), config_(config), publicUrl_(std::move(publicUrl)), keys_(keys), hasher_(hasher), limiter_(limiter),
      outbox_(outbox) {}

std::string AuthService::checkedNewPassword(const nlohmann::json& value) {
    if (!value.is_string() || value.get<std::string>().empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "Signup requires a valid password");
    const std::string password = value;
    if (password.size() > kMaxPasswordBytes)
        throw ApiError(ErrorKind::Validation, "validation_failed",
                       "Password cannot be longer than " + std::to_string(kMaxPasswordBytes) + " characters");
    auto reasons = weakPasswordReasons(password, config_.passwordMinLength);
    if (!reasons.empty()) {
        ApiError e(ErrorKind::Validation, "weak_password", weakPasswordMessage(reasons, config_.passwordMinLength));
        e.extra["weak_password"] = {{"reasons", reasons}};
        throw e;
    }
    return password;
}

void AuthService::throttleEmail(const std::string& email, const ClientInfo& client) {
    requireWithinLimits(limiter_.hit("auth-send:" + client.ip, config_.signupLimitPerAddress, config_.signinWindowSeconds),
                        limiter_.hit("auth-mail:" + email, config_.emailLimitPerAddress, config_.emailWindowSeconds),
                        "over_email_send_rate_limit", "Email rate limit exceeded. Please try again later.");
}

std::string AuthService::insertUser(Poco::Data::Session& s, const std::string& email, const std::optional<std::string>& passwordHash,
                                    const nlohmann::json& userMetadata, bool confirmed, const std::optional<std::string>& invitedAt) {
    std::string id = db::newId(), at = db::nowTimestamp(), mail = email, meta = userMetadata.dump(), name = fullName(userMetadata);
    Poco::Nullable<std::string> hash, confirmedAt, invited, fullNameValue;
    if (passwordHash) hash = *passwordHash;
    if (confirmed) confirmedAt = at;
    if (invitedAt) invited = *invitedAt;
    if (!name.empty()) fullNameValue = name;
    s << db_.sql("INSERT INTO users (id, email, encrypted_password, email_confirmed_at, invited_at, raw_app_meta_data, "
                 "raw_user_meta_data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '{}', ?, ?, ?)"),
        use(id), use(mail), use(hash), use(confirmedAt), use(invited), use(meta), use(at), use(at), now;
    s << db_.sql("INSERT INTO profiles (id, email, full_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"), use(id), use(mail),
        use(fullNameValue), use(at), use(at), now;
    return id;
}

std::string AuthService::safeRedirect(const std::optional<std::string>& redirectTo) const {
    const std::string home = publicUrl_ + "/";
    if (!redirectTo || redirectTo->empty()) return home;
    try {
        Poco::URI target(*redirectTo), site(publicUrl_);
        if (target.getScheme() == site.getScheme() && target.getHost() == site.getHost() && target.getPort() == site.getPort() &&
            target.getFragment().empty())
            return *redirectTo;
    } catch (const Poco::Exception&) {
    }
    return home;
}

ActionLink AuthService::createLink(Poco::Data::Session& s, const std::string& userId, const std::string& type,
                                   const std::string& sendTo, const std::optional<std::string>& redirectTo) {
    ActionLink link;
    link.token = randomToken();
    link.type = type;
    link.redirectTo = safeRedirect(redirectTo);
    std::string id = db::newId(), uid = userId, t = type, hash = sha256Hex(link.token), to = sendTo, at = db::nowTimestamp(),
                expires = db::timestampAfter(config_.linkExpirySeconds);
    // A new link of a kind replaces the older ones of that kind.
    s << db_.sql("UPDATE auth_one_time_tokens SET used_at = ? WHERE user_id = ? AND token_type = ? AND used_at IS NULL"), use(at),
        use(uid), use(t), now;
    s << db_.sql("INSERT INTO auth_one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, expires_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)"),
        use(id), use(uid), use(t), use(hash), use(to), use(at), use(expires), now;
    link.url = publicUrl_ + "/auth/v1/verify?token=" + link.token + "&type=" + type +
               "&redirect_to=" + common::encodeUriComponent(link.redirectTo);
    const char* sentColumn = type == "signup" ? "confirmation_sent_at"
                             : type == "recovery" ? "recovery_sent_at"
                             : type == "invite" ? "invited_at"
                                                : "email_change_sent_at";
    s << db_.sql(std::string("UPDATE users SET ") + sentColumn + " = ? WHERE id = ?"), use(at), use(uid), now;
    return link;
}

void AuthService::sendLink(db::Tx& tx, const ActionLink& link, const std::string& to) {
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
    outbox_.enqueue(tx, m);
}

nlohmann::json AuthService::signUp(const nlohmann::json& body, const std::optional<std::string>& redirectTo, const ClientInfo& client) {
    if (!config_.signupEnabled) throw ApiError(ErrorKind::Validation, "signup_disabled", "Signups not allowed for this instance");
    auto decision = limiter_.hit("auth-signup:" + client.ip, config_.signupLimitPerAddress, config_.signinWindowSeconds);
    if (!decision.allowed) {
        ApiError e(ErrorKind::RateLimited, "over_request_rate_limit", "Request rate limit reached");
        e.retryAfterSeconds = decision.retryAfterSeconds;
        throw e;
    }
    const std::string email = requiredEmail(body);
    const std::string password = checkedNewPassword(body.contains("password") ? body["password"] : nlohmann::json());
    auto metadata = optionalObject(body, "data");
    const std::string hash = hasher_.hash(password);
    // Counted for every sign-up to this address, so repeating a sign-up cannot flood its inbox
    // with confirmation mail (the answer stays the same either way).
    const bool mailAllowed =
        limiter_.hit("auth-mail:" + email, config_.emailLimitPerAddress, config_.emailWindowSeconds).allowed;

    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (auto existing = findUserByEmail(s, email)) {
            if (!config_.confirmEmail) throw ApiError(ErrorKind::Validation, "user_already_exists", "User already registered");
            // With confirmation on, the answer must not reveal that the address is taken: the same
            // shape as a new user (identities included: GoTrue's empty list would give it away), and
            // the owner gets mail (a new confirmation link if unconfirmed).
            if (!existing->emailConfirmedAt && mailAllowed) {
                auto link = createLink(s, existing->id, "signup", email, redirectTo);
                sendLink(tx, link, email);
            }
            UserRecord decoy;
            decoy.id = db::newId();
            decoy.email = email;
            decoy.userMetadata = metadata;
            decoy.createdAt = decoy.updatedAt = db::nowTimestamp();
            decoy.confirmationSentAt = decoy.createdAt;
            result = userJson(s, decoy);
            return;
        }
        const std::string id = insertUser(s, email, hash, metadata, !config_.confirmEmail, std::nullopt);
        audit(s, "user_signedup", id, std::nullopt, client);
        auto user = findUserById(s, id);
        if (config_.confirmEmail) {
            auto link = createLink(s, id, "signup", email, redirectTo);
            sendLink(tx, link, email);
            user = findUserById(s, id);
            result = userJson(s, *user);
        } else {
            result = signInNewSession(s, *user, "password", client);
        }
    });
    return result;
}

nlohmann::json AuthService::signInWithPassword(const nlohmann::json& body, const ClientInfo& client) {
    auto email = optionalString(body, "email");
    auto password = optionalString(body, "password");
    if (!email || email->empty() || !password || password->empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "missing email or phone");
    if (password->size() > kMaxPasswordBytes) throw invalidCredentials();
    const std::string normalized = normalizeEmail(*email);

    // Throttle by client address and by account before any hashing, so guessing costs the guesser.
    requireWithinLimits(limiter_.hit("auth-signin-ip:" + client.ip, config_.signinLimitPerAddress, config_.signinWindowSeconds),
                        limiter_.hit("auth-signin:" + normalized, config_.signinLimitPerAccount, config_.signinWindowSeconds),
                        "over_request_rate_limit", "Too many sign-in attempts. Please wait and try again.");

    std::optional<UserRecord> user;
    {
        auto s = db_.session();
        user = findUserByEmail(s, normalized);
    }
    // Unknown address or no password yet: spend the same hashing time and give the same answer.
    if (!user || !user->encryptedPassword) {
        hasher_.verifyDummy(*password);
        db_.write([&](db::Tx& tx) {
        auto& s = tx.session(); audit(s, "login_failed", std::nullopt, std::nullopt, client, {{"reason", "unknown"}}); });
        throw invalidCredentials();
    }
    if (!hasher_.verify(*user->encryptedPassword, *password)) {
        db_.write([&](db::Tx& tx) {
        auto& s = tx.session(); audit(s, "login_failed", user->id, std::nullopt, client, {{"reason", "password"}}); });
        throw invalidCredentials();
    }
    if (user->banned()) throw ApiError(ErrorKind::BadRequest, "user_banned", "User is banned");
    if (config_.confirmEmail && !user->emailConfirmedAt) throw ApiError(ErrorKind::BadRequest, "email_not_confirmed", "Email not confirmed");

    std::optional<std::string> rehash;
    if (hasher_.needsRehash(*user->encryptedPassword)) rehash = hasher_.hash(*password);
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (rehash) {
            std::string h = *rehash, uid = user->id;
            s << db_.sql("UPDATE users SET encrypted_password = ? WHERE id = ?"), use(h), use(uid), now;
        }
        audit(s, "login", user->id, std::nullopt, client, {{"method", "password"}});
        result = signInNewSession(s, *user, "password", client);
    });
    return result;
}

nlohmann::json AuthService::user(const http::Caller& caller) {
    auto s = db_.session();
    auto u = findUserById(s, caller.userId);
    if (!u) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    return userJson(s, *u);
}

nlohmann::json AuthService::updateUser(const http::Caller& caller, const nlohmann::json& body, const std::optional<std::string>& redirectTo,
                                       const ClientInfo& client) {
    std::optional<std::string> password;
    if (body.contains("password") && !body["password"].is_null()) password = checkedNewPassword(body["password"]);
    std::optional<std::string> newEmail;
    if (body.contains("email") && !body["email"].is_null()) newEmail = requiredEmail(body);
    const bool hasData = body.contains("data") && !body["data"].is_null();
    auto data = optionalObject(body, "data");

    std::optional<UserRecord> current;
    {
        auto s = db_.session();
        current = findUserById(s, caller.userId);
    }
    if (!current) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
    if (newEmail && current->email && *newEmail == normalizeEmail(*current->email)) newEmail.reset();
    if ((password || newEmail) && caller.hasVerifiedFactor && caller.aal != "aal2")
        throw ApiError(ErrorKind::Forbidden, "insufficient_aal",
                       "AAL2 session is required to update email or password when MFA is enabled.");
    std::optional<std::string> hash;
    if (password) {
        if (current->encryptedPassword && hasher_.verify(*current->encryptedPassword, *password))
            throw ApiError(ErrorKind::Validation, "same_password", "New password should be different from the old password.");
        hash = hasher_.hash(*password);
    }
    if (newEmail && config_.confirmEmail) throttleEmail(*newEmail, client);

    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string uid = caller.userId, at = db::nowTimestamp();
        if (hash) {
            std::string h = *hash;
            s << db_.sql("UPDATE users SET encrypted_password = ?, updated_at = ? WHERE id = ?"), use(h), use(at), use(uid), now;
            // A new password ends every other session and every recovery link still waiting.
            endSessions(s, caller.userId, caller.sessionId);
            s << db_.sql("UPDATE auth_one_time_tokens SET used_at = ? WHERE user_id = ? AND token_type = 'recovery' AND used_at IS NULL"),
                use(at), use(uid), now;
            audit(s, "password_changed", caller.userId, caller.userId, client);
        }
        if (hasData) {
            auto merged = current->userMetadata;
            for (const auto& [key, value] : data.items()) {
                if (value.is_null()) merged.erase(key);
                else merged[key] = value;
            }
            std::string meta = merged.dump();
            s << db_.sql("UPDATE users SET raw_user_meta_data = ?, updated_at = ? WHERE id = ?"), use(meta), use(at), use(uid), now;
            if (data.contains("full_name")) {
                Poco::Nullable<std::string> name;
                if (auto n = fullName(merged); !n.empty()) name = n;
                s << db_.sql("UPDATE profiles SET full_name = ?, updated_at = ? WHERE id = ?"), use(name), use(at), use(uid), now;
            }
        }
        if (newEmail) {
            if (findUserByEmail(s, *newEmail))
                throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
            std::string e = *newEmail;
            if (config_.confirmEmail) {
                s << db_.sql("UPDATE users SET email_change = ?, updated_at = ? WHERE id = ?"), use(e), use(at), use(uid), now;
                auto link = createLink(s, caller.userId, "email_change", e, redirectTo);
                sendLink(tx, link, e);
            } else {
                s << db_.sql("UPDATE users SET email = ?, updated_at = ? WHERE id = ?"), use(e), use(at), use(uid), now;
                s << db_.sql("UPDATE profiles SET email = ?, updated_at = ? WHERE id = ?"), use(e), use(at), use(uid), now;
            }
            audit(s, "email_change_requested", caller.userId, caller.userId, client);
        }
        result = userJson(s, *findUserById(s, caller.userId));
    });
    return result;
}

void AuthService::recover(const nlohmann::json& body, const std::optional<std::string>& redirectTo, const ClientInfo& client) {
    const std::string email = requiredEmail(body);
    throttleEmail(email, client);
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto user = findUserByEmail(s, email);
        if (!user) return; // same answer either way
        auto link = createLink(s, user->id, "recovery", email, redirectTo);
        sendLink(tx, link, email);
        audit(s, "recovery_requested", user->id, std::nullopt, client);
    });
}

nlohmann::json AuthService::verify(const std::string& requestedType, const std::string& token, const ClientInfo& client) {
    std::string type = requestedType == "email" ? "signup" : requestedType;
    if (type != "signup" && type != "recovery" && type != "invite" && type != "email_change")
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "Verify requires a verification type");
    if (token.empty() || token.size() > 256) throw linkInvalid();
    nlohmann::json result;
    std::optional<ApiError> failure;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string hash = sha256Hex(token), t = type, at = db::nowTimestamp();
        Poco::Data::Statement select(s);
        select << db_.sql("SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, relates_to FROM auth_one_time_tokens "
                          "WHERE token_hash = ? AND token_type = ? AND used_at IS NULL AND expires_at > ?"),
            use(hash), use(t), use(at);
        select.execute();
        Poco::Data::RecordSet rs(select);
        if (rs.rowCount() == 0) {
            failure = linkInvalid();
            return;
        }
        db::Row row(rs, 0);
        std::string id = row.text("id"), uid = row.text("user_id"), relatesTo = row.text("relates_to");
        Poco::Data::Statement spend(s);
        spend << db_.sql("UPDATE auth_one_time_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL"), use(at), use(id);
        if (spend.execute() != 1) {
            failure = linkInvalid();
            return;
        }
        auto user = findUserById(s, uid);
        if (!user) {
            failure = linkInvalid();
            return;
        }
        if (type == "email_change") {
            if (!user->emailChange || normalizeEmail(*user->emailChange) != relatesTo || findUserByEmail(s, relatesTo)) {
                failure = linkInvalid();
                return;
            }
            s << db_.sql("UPDATE users SET email = ?, email_change = NULL, email_confirmed_at = ?, updated_at = ? WHERE id = ?"),
                use(relatesTo), use(at), use(at), use(uid), now;
            s << db_.sql("UPDATE profiles SET email = ?, updated_at = ? WHERE id = ?"), use(relatesTo), use(at), use(uid), now;
        } else {
            s << db_.sql("UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?), updated_at = ? WHERE id = ?"), use(at),
                use(at), use(uid), now;
        }
        audit(s, type == "signup" ? "user_confirmed" : type == "recovery" ? "recovery_link_used" : type == "invite" ? "invite_accepted" : "email_changed",
              uid, std::nullopt, client);
        user = findUserById(s, uid);
        result = signInNewSession(s, *user, type == "recovery" ? "recovery" : type == "invite" ? "invite" : "otp", client);
    });
    if (failure) throw *failure;
    return result;
}

} // namespace storefront::auth

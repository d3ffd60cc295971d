#include "auth/admin.h"

#include "auth/links.h"
#include "auth/notices.h"
#include "auth/user_json.h"
#include "common/text.h"
#include "http/api_error.h"
#include "mail/mail_message.h"

#include <Poco/NumberParser.h>

#include <algorithm>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

ApiError userNotFound() { return ApiError(ErrorKind::NotFound, "user_not_found", "User not found"); }

// A hard deletion that would take billing or team records with it is refused with what to do
// instead; a soft deletion (should_soft_delete) keeps those records and is always possible.
void refuseHardDeletion(const UserRepository::DeletionBlockers& b) {
    if (b.enterpriseAccounts > 0)
        throw ApiError(ErrorKind::Conflict, "user_is_enterprise_admin",
                       "This user administers an enterprise account: give the account another admin or delete it first, "
                       "or soft-delete the user");
    if (b.enterpriseSeats > 0)
        throw ApiError(ErrorKind::Conflict, "user_holds_enterprise_seats",
                       "This user holds enterprise licence seats: remove them from the team first, or soft-delete the user");
    if (b.subscriptions > 0)
        throw ApiError(ErrorKind::Conflict, "user_has_subscriptions",
                       "This user has subscriptions, which are kept as billing records: soft-delete the user instead");
}

void requireUuid(const std::string& id) {
    if (!common::isUuid(id)) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found");
}

// Roles are given as app_metadata.roles; only known roles are accepted.
std::optional<std::vector<std::string>> requestedRoles(const nlohmann::json& appMetadata) {
    auto it = appMetadata.find("roles");
    if (it == appMetadata.end()) return std::nullopt;
    if (!it->is_array()) throw ApiError(ErrorKind::BadRequest, "validation_failed", "app_metadata.roles must be a list");
    std::vector<std::string> roles;
    for (const auto& r : *it) {
        if (!r.is_string() || r.get<std::string>() != "admin")
            throw ApiError(ErrorKind::BadRequest, "validation_failed", "The only role is admin");
        roles.push_back(r);
    }
    return roles;
}

// app_metadata without the keys the server owns.
nlohmann::json storableAppMetadata(nlohmann::json meta) {
    meta.erase("roles");
    meta.erase("provider");
    meta.erase("providers");
    return meta;
}


// The end of a ban of `duration` ("24h"): nullopt for "none"; 400 for anything else.
std::optional<std::string> banEnd(const Clock& clock, const std::string& duration) {
    if (duration == "none") return std::nullopt;
    int hours = 0;
    if (duration.size() < 2 || duration.back() != 'h' || !Poco::NumberParser::tryParse(duration.substr(0, duration.size() - 1), hours) ||
        hours <= 0 || hours > 876000)
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "ban_duration must be a number of hours such as 24h, or none");
    return clock.timestampAfter(hours * 3600);
}

} // namespace

UserPage AdminUsers::list(int page, int perPage) {
    auto s = ctx_.db.session();
    UserPage result;
    result.total = ctx_.users.count(s);
    result.users = nlohmann::json::array();
    for (const auto& id : ctx_.users.page(s, perPage, static_cast<std::int64_t>(page - 1) * perPage))
        if (auto u = ctx_.users.find(s, id)) result.users.push_back(userJson(ctx_, s, *u));
    return result;
}

nlohmann::json AdminUsers::get(const std::string& id) {
    requireUuid(id);
    auto s = ctx_.db.session();
    auto u = ctx_.users.find(s, id);
    if (!u) throw userNotFound();
    return userJson(ctx_, s, *u);
}

nlohmann::json AdminUsers::create(const Principal& admin, const AdminUserInput& input, const ClientInfo& client) {
    const std::string email = checkedEmail(input.email);
    if (input.userMetadata) checkFullName(*input.userMetadata);
    std::optional<std::string> hash;
    if (input.password) hash = ctx_.hasher.hash(checkedNewPassword(ctx_.settings, input.password));
    const auto appMeta = input.appMetadata.value_or(nlohmann::json::object());
    auto roleList = requestedRoles(appMeta);
    const auto actor = actorOf(admin, client);
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        if (ctx_.users.findByEmail(tx.session(), email)) throw emailTaken();
        auto id = ctx_.users.insert(tx, {email, hash, input.userMetadata.value_or(nlohmann::json::object()), input.emailConfirm,
                                         std::nullopt});
        ctx_.users.setAppMetadata(tx, id, storableAppMetadata(appMeta));
        for (const auto& role : roleList.value_or(std::vector<std::string>{})) {
            ctx_.users.grantAdmin(tx, id, admin.userId);
            recordEvent(tx, "role_granted", id, actor, {{"role", role}});
        }
        recordEvent(tx, "user_created", id, actor);
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), id));
    });
    return result;
}

void AdminUsers::changeEmail(db::Tx& tx, const UserRecord& user, const std::string& email) {
    if (user.email && normalizeEmail(*user.email) == email) return;
    if (ctx_.users.findByEmail(tx.session(), email)) throw emailTaken();
    ctx_.users.setEmail(tx, user.id, email, false);
}

void AdminUsers::changeRoles(db::Tx& tx, const Principal& admin, const std::string& id, const std::vector<std::string>& roles,
                             const audit::Actor& actor) {
    const bool wantsAdmin = !roles.empty(), isAdmin = !ctx_.users.roles(tx.session(), id).empty();
    if (wantsAdmin && !isAdmin) {
        ctx_.users.grantAdmin(tx, id, admin.userId);
        recordEvent(tx, "role_granted", id, actor, {{"role", "admin"}});
    } else if (!wantsAdmin && isAdmin) {
        if (id == admin.userId) throw ApiError(ErrorKind::Validation, "validation_failed", "You cannot remove your own admin role");
        ctx_.users.revokeAdmin(tx, id);
        recordEvent(tx, "role_revoked", id, actor, {{"role", "admin"}});
    }
}

void AdminUsers::changeBan(db::Tx& tx, const std::string& id, const std::string& banDuration, const audit::Actor& actor) {
    auto until = banEnd(ctx_.db.clock(), banDuration);
    if (until) sessions_.endAll(tx, id, std::nullopt);
    ctx_.users.setBannedUntil(tx, id, until);
    recordEvent(tx, until ? "user_banned" : "user_unbanned", id, actor);
}

nlohmann::json AdminUsers::update(const Principal& admin, const std::string& id, const AdminUserInput& input, const ClientInfo& client) {
    requireUuid(id);
    std::optional<std::string> email;
    if (input.email) email = checkedEmail(input.email);
    std::optional<std::string> hash;
    if (input.password) hash = ctx_.hasher.hash(checkedNewPassword(ctx_.settings, input.password));
    auto roleList = requestedRoles(input.appMetadata.value_or(nlohmann::json::object()));
    const auto actor = actorOf(admin, client);
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        auto user = ctx_.users.find(tx.session(), id);
        if (!user) throw userNotFound();
        if (email) changeEmail(tx, *user, *email);
        if (hash) {
            ctx_.users.setPassword(tx, id, *hash);
            sessions_.endAll(tx, id, std::nullopt);
            const auto voided = ctx_.users.voidPendingLinks(tx, id);
            recordEvent(tx, "password_changed", id, actor, {{"links_voided", voided}});
        }
        if (input.emailConfirm) ctx_.users.confirmEmail(tx, id);
        if (input.userMetadata) ctx_.users.setUserMetadata(tx, id, *input.userMetadata);
        if (input.appMetadata) {
            auto merged = user->appMetadata;
            const auto additions = storableAppMetadata(*input.appMetadata);
            for (const auto& [key, value] : additions.items()) merged[key] = value;
            ctx_.users.setAppMetadata(tx, id, merged);
        }
        if (roleList) changeRoles(tx, admin, id, *roleList, actor);
        if (input.banDuration) changeBan(tx, id, *input.banDuration, actor);
        recordEvent(tx, "user_updated", id, actor);
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), id));
    });
    return result;
}

nlohmann::json AdminUsers::remove(const Principal& admin, const std::string& id, bool soft, const ClientInfo& client) {
    requireUuid(id);
    if (id == admin.userId) throw ApiError(ErrorKind::Validation, "validation_failed", "You cannot delete your own account here");
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        auto user = ctx_.users.find(tx.session(), id);
        if (!user) throw userNotFound();
        result = userJson(ctx_, tx.session(), *user);
        if (soft) {
            // Soft deletion scrubs the address so it can sign up again, and ends every session.
            sessions_.endAll(tx, id, std::nullopt);
            ctx_.users.softDelete(tx, id);
        } else {
            refuseHardDeletion(ctx_.users.deletionBlockers(tx.session(), id));
            ctx_.users.hardDelete(tx, id);
        }
        recordEvent(tx, "user_deleted", std::nullopt, actorOf(admin, client), {{"user_id", id}, {"soft", soft}});
    });
    return result;
}

nlohmann::json AdminUsers::factors(const std::string& userId) {
    requireUuid(userId);
    auto s = ctx_.db.session();
    if (!ctx_.users.find(s, userId)) throw userNotFound();
    return factorsJson(ctx_, s, userId);
}

nlohmann::json AdminUsers::removeFactor(const Principal& admin, const std::string& userId, const std::string& factorId,
                                        const ClientInfo& client) {
    requireUuid(userId);
    const ApiError notFound(ErrorKind::NotFound, "mfa_factor_not_found", "Factor not found");
    if (!common::isUuid(factorId)) throw notFound;
    ctx_.db.write([&](db::Tx& tx) {
        const auto factors = ctx_.factors.list(tx.session(), userId);
        const auto it = std::find_if(factors.begin(), factors.end(), [&](const FactorSummary& f) { return f.id == factorId; });
        if (it == factors.end() || !ctx_.factors.removeOwned(tx, userId, factorId)) throw notFound;
        recordEvent(tx, "mfa_unenrolled", userId, actorOf(admin, client), {{"factor_id", factorId}});
        if (it->status != "verified") return;
        if (std::none_of(factors.begin(), factors.end(), [&](const FactorSummary& f) { return f.id != factorId && f.status == "verified"; }))
            ctx_.recoveryCodes.removeAllOf(tx, userId);
        ctx_.users.voidPendingLinks(tx, userId);
        if (auto user = ctx_.users.find(tx.session(), userId); user && user->email)
            sendNotice(ctx_, tx, Notice::TwoFactorResetByStaff, *user->email);
    });
    return {{"id", factorId}};
}

nlohmann::json AdminUsers::invite(const Principal& admin, const std::optional<std::string>& rawEmail, const nlohmann::json& data,
                                  const std::optional<std::string>& redirectTo, const ClientInfo& client) {
    const std::string email = checkedEmail(rawEmail);
    checkFullName(data);
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        if (ctx_.users.findByEmail(tx.session(), email)) throw emailTaken();
        auto id = ctx_.users.insert(tx, {email, std::nullopt, data, false, ctx_.db.clock().nowTimestamp()});
        sendLink(ctx_, tx, createLink(ctx_, tx, id, "invite", email, redirectTo), email);
        recordEvent(tx, "user_invited", id, actorOf(admin, client));
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), id));
    });
    return result;
}

nlohmann::json AdminUsers::generateLink(const Principal& admin, const LinkRequest& request, const ClientInfo& client) {
    const auto& type = request.type;
    if (type != "signup" && type != "invite" && type != "recovery" && type != "magiclink")
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "type must be signup, invite, recovery or magiclink");
    const std::string email = checkedEmail(request.email);
    checkFullName(request.data);
    std::optional<std::string> hash;
    if (type == "signup") hash = ctx_.hasher.hash(checkedNewPassword(ctx_.settings, request.password));
    nlohmann::json result;
    ctx_.db.write([&](db::Tx& tx) {
        auto user = ctx_.users.findByEmail(tx.session(), email);
        // Recovery and magic links sign an existing user in; the others make the user.
        const bool existing = type == "recovery" || type == "magiclink";
        if (existing && !user) throw userNotFound();
        if (!existing && user) throw emailTaken();
        const std::string id =
            user ? user->id
                 : ctx_.users.insert(tx, {email, hash, request.data, false,
                                          type == "invite" ? std::optional(ctx_.db.clock().nowTimestamp()) : std::nullopt});
        auto link = createLink(ctx_, tx, id, type, email, request.redirectTo);
        recordEvent(tx, "link_generated", id, actorOf(admin, client), {{"type", type}});
        result = userJson(ctx_, tx.session(), *ctx_.users.find(tx.session(), id));
        result["action_link"] = link.url;
        result["email_otp"] = "";
        result["hashed_token"] = "";
        result["redirect_to"] = link.redirectTo;
        result["verification_type"] = type;
    });
    return result;
}

AdminUsers::CreatedUser AdminUsers::createFromShell(const std::string& rawEmail, const std::optional<std::string>& password,
                                                    bool admin) {
    const std::string email = normalizeEmail(rawEmail);
    if (!mail::isValidEmailAddress(email))
        throw ApiError(ErrorKind::BadRequest, "email_address_invalid", "That is not a valid email address.");
    std::optional<std::string> hash;
    if (password) hash = ctx_.hasher.hash(checkedNewPassword(ctx_.settings, password));
    const auto shell = audit::systemActor("shell", "shell");
    CreatedUser created;
    ctx_.db.write([&](db::Tx& tx) {
        if (ctx_.users.findByEmail(tx.session(), email)) throw emailTaken();
        created.id = ctx_.users.insert(tx, {email, hash, nlohmann::json::object(), true, std::nullopt});
        if (admin) {
            ctx_.users.grantAdmin(tx, created.id, std::nullopt);
            recordEvent(tx, "role_granted", created.id, shell, {{"role", "admin"}});
        }
        recordEvent(tx, "user_created", created.id, shell);
        if (!password) created.setPasswordLink = createLink(ctx_, tx, created.id, "invite", email, std::nullopt).url;
    });
    return created;
}

AdminUsers::InvitedUser AdminUsers::inviteWithin(db::Tx& tx, const std::string& email, const std::optional<std::string>& redirectTo,
                                                  const audit::Actor& actor) {
    InvitedUser invited;
    invited.id = ctx_.users.insert(tx, {email, std::nullopt, nlohmann::json::object(), true, tx.clock().nowTimestamp()});
    invited.link = createLink(ctx_, tx, invited.id, "invite", email, redirectTo).url;
    recordEvent(tx, "user_invited", invited.id, actor);
    return invited;
}

} // namespace storefront::auth

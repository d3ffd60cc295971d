// The staff admin API (/auth/v1/admin/*, /invite) and the shell's `storefront users create`.
#include "auth/auth_service.h"

#include "auth/fields.h"
#include "common/text.h"
#include "db/row.h"
#include "http/api_error.h"
#include "mail/mail_message.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Nullable.h>
#include <Poco/NumberParser.h>

using namespace Poco::Data::Keywords;
using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

namespace {

ApiError userNotFound() { return ApiError(ErrorKind::NotFound, "user_not_found", "User not found"); }

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

} // namespace

UserPage AuthService::adminListUsers(int page, int perPage) {
    auto s = db_.session();
    UserPage result;
    s << "SELECT COUNT(*) FROM users WHERE deleted_at IS NULL", into(result.total), now;
    std::vector<std::string> ids;
    int limit = perPage, offset = (page - 1) * perPage;
    s << db_.sql("SELECT CAST(id AS TEXT) FROM users WHERE deleted_at IS NULL ORDER BY created_at DESC, id LIMIT ? OFFSET ?"), use(limit),
        use(offset), into(ids), now;
    result.users = nlohmann::json::array();
    for (const auto& id : ids)
        if (auto u = findUserById(s, id)) result.users.push_back(userJson(s, *u));
    return result;
}

nlohmann::json AuthService::adminGetUser(const std::string& id) {
    requireUuid(id);
    auto s = db_.session();
    auto u = findUserById(s, id);
    if (!u) throw userNotFound();
    return userJson(s, *u);
}

nlohmann::json AuthService::adminCreateUser(const http::Caller& admin, const nlohmann::json& body, const ClientInfo& client) {
    const std::string email = requiredEmail(body);
    std::optional<std::string> hash;
    if (body.contains("password") && !body["password"].is_null()) hash = hasher_.hash(checkedNewPassword(body["password"]));
    const bool confirm = optionalBool(body, "email_confirm", false);
    auto userMeta = optionalObject(body, "user_metadata");
    auto appMeta = optionalObject(body, "app_metadata");
    auto roleList = requestedRoles(appMeta);
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (findUserByEmail(s, email))
            throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
        auto id = insertUser(s, email, hash, userMeta, confirm, std::nullopt);
        std::string meta = storableAppMetadata(appMeta).dump(), at = db::nowTimestamp(), adminId = admin.userId;
        s << db_.sql("UPDATE users SET raw_app_meta_data = ? WHERE id = ?"), use(meta), use(id), now;
        for (const auto& role : roleList.value_or(std::vector<std::string>{})) {
            std::string r = role;
            s << db_.sql("INSERT INTO user_roles (user_id, role, granted_at, granted_by) VALUES (?, ?, ?, ?)"), use(id), use(r), use(at),
                use(adminId), now;
            audit(s, "role_granted", id, admin.userId, client, {{"role", role}});
        }
        audit(s, "user_created", id, admin.userId, client);
        result = userJson(s, *findUserById(s, id));
    });
    return result;
}

nlohmann::json AuthService::adminUpdateUser(const http::Caller& admin, const std::string& id, const nlohmann::json& body,
                                            const ClientInfo& client) {
    requireUuid(id);
    std::optional<std::string> email;
    if (body.contains("email") && !body["email"].is_null()) email = requiredEmail(body);
    std::optional<std::string> hash;
    if (body.contains("password") && !body["password"].is_null()) hash = hasher_.hash(checkedNewPassword(body["password"]));
    const bool confirmEmail = optionalBool(body, "email_confirm", false);
    const bool hasUserMeta = body.contains("user_metadata") && !body["user_metadata"].is_null();
    const bool hasAppMeta = body.contains("app_metadata") && !body["app_metadata"].is_null();
    auto userMeta = optionalObject(body, "user_metadata");
    auto appMeta = optionalObject(body, "app_metadata");
    auto roleList = requestedRoles(appMeta);
    std::optional<std::string> ban;
    if (auto it = body.find("ban_duration"); it != body.end() && !it->is_null()) {
        if (!it->is_string()) throw ApiError(ErrorKind::BadRequest, "validation_failed", "ban_duration must be text such as 24h or none");
        ban = *it;
    }
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto user = findUserById(s, id);
        if (!user) throw userNotFound();
        std::string uid = id, at = db::nowTimestamp(), adminId = admin.userId;
        if (email && (!user->email || normalizeEmail(*user->email) != *email)) {
            if (findUserByEmail(s, *email))
                throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
            std::string e = *email;
            s << db_.sql("UPDATE users SET email = ?, email_change = NULL, updated_at = ? WHERE id = ?"), use(e), use(at), use(uid), now;
            s << db_.sql("UPDATE profiles SET email = ?, updated_at = ? WHERE id = ?"), use(e), use(at), use(uid), now;
        }
        if (hash) {
            std::string h = *hash;
            s << db_.sql("UPDATE users SET encrypted_password = ?, updated_at = ? WHERE id = ?"), use(h), use(at), use(uid), now;
            endSessions(s, id, std::nullopt);
            audit(s, "password_changed", id, admin.userId, client);
        }
        if (confirmEmail)
            s << db_.sql("UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?) WHERE id = ?"), use(at), use(uid), now;
        if (hasUserMeta) {
            std::string meta = userMeta.dump();
            s << db_.sql("UPDATE users SET raw_user_meta_data = ?, updated_at = ? WHERE id = ?"), use(meta), use(at), use(uid), now;
        }
        if (hasAppMeta) {
            auto merged = user->appMetadata;
            const nlohmann::json additions = storableAppMetadata(appMeta);
            for (auto it = additions.begin(); it != additions.end(); ++it) merged[it.key()] = it.value();
            std::string meta = merged.dump();
            s << db_.sql("UPDATE users SET raw_app_meta_data = ?, updated_at = ? WHERE id = ?"), use(meta), use(at), use(uid), now;
        }
        if (roleList) {
            auto held = roles(s, id);
            const bool wantsAdmin = !roleList->empty(), isAdmin = !held.empty();
            if (wantsAdmin && !isAdmin) {
                s << db_.sql("INSERT INTO user_roles (user_id, role, granted_at, granted_by) VALUES (?, 'admin', ?, ?)"), use(uid), use(at),
                    use(adminId), now;
                audit(s, "role_granted", id, admin.userId, client, {{"role", "admin"}});
            } else if (!wantsAdmin && isAdmin) {
                if (id == admin.userId)
                    throw ApiError(ErrorKind::Validation, "validation_failed", "You cannot remove your own admin role");
                s << db_.sql("DELETE FROM user_roles WHERE user_id = ? AND role = 'admin'"), use(uid), now;
                audit(s, "role_revoked", id, admin.userId, client, {{"role", "admin"}});
            }
        }
        if (ban) {
            Poco::Nullable<std::string> until;
            if (*ban != "none") {
                int hours = 0;
                if (ban->size() < 2 || ban->back() != 'h' || !Poco::NumberParser::tryParse(ban->substr(0, ban->size() - 1), hours) ||
                    hours <= 0 || hours > 876000)
                    throw ApiError(ErrorKind::BadRequest, "validation_failed", "ban_duration must be a number of hours such as 24h, or none");
                until = db::timestampAfter(hours * 3600);
                endSessions(s, id, std::nullopt);
            }
            s << db_.sql("UPDATE users SET banned_until = ?, updated_at = ? WHERE id = ?"), use(until), use(at), use(uid), now;
            audit(s, *ban == "none" ? "user_unbanned" : "user_banned", id, admin.userId, client);
        }
        audit(s, "user_updated", id, admin.userId, client);
        result = userJson(s, *findUserById(s, id));
    });
    return result;
}

nlohmann::json AuthService::adminDeleteUser(const http::Caller& admin, const std::string& id, bool soft, const ClientInfo& client) {
    requireUuid(id);
    if (id == admin.userId) throw ApiError(ErrorKind::Validation, "validation_failed", "You cannot delete your own account here");
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto user = findUserById(s, id);
        if (!user) throw userNotFound();
        result = userJson(s, *user);
        std::string uid = id, at = db::nowTimestamp();
        if (soft) {
            // Soft deletion scrubs the address so it can sign up again, and ends every session.
            endSessions(s, id, std::nullopt);
            s << db_.sql("UPDATE users SET email = NULL, phone = NULL, encrypted_password = NULL, email_change = NULL, deleted_at = ?, "
                         "updated_at = ? WHERE id = ?"),
                use(at), use(at), use(uid), now;
            s << db_.sql("UPDATE profiles SET email = NULL, updated_at = ? WHERE id = ?"), use(at), use(uid), now;
            s << db_.sql("DELETE FROM user_roles WHERE user_id = ?"), use(uid), now;
            s << db_.sql("DELETE FROM mfa_factors WHERE user_id = ?"), use(uid), now;
        } else {
            s << db_.sql("DELETE FROM users WHERE id = ?"), use(uid), now;
        }
        audit(s, "user_deleted", std::nullopt, admin.userId, client, {{"user_id", id}, {"soft", soft}});
    });
    return result;
}

nlohmann::json AuthService::adminListFactors(const std::string& userId) {
    requireUuid(userId);
    auto s = db_.session();
    if (!findUserById(s, userId)) throw userNotFound();
    return factorsJson(s, userId);
}

nlohmann::json AuthService::adminDeleteFactor(const http::Caller& admin, const std::string& userId, const std::string& factorId,
                                              const ClientInfo& client) {
    requireUuid(userId);
    if (!common::isUuid(factorId)) throw ApiError(ErrorKind::NotFound, "mfa_factor_not_found", "Factor not found");
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string fid = factorId, uid = userId;
        Poco::Data::Statement del(s);
        del << db_.sql("DELETE FROM mfa_factors WHERE id = ? AND user_id = ?"), use(fid), use(uid);
        if (del.execute() != 1) throw ApiError(ErrorKind::NotFound, "mfa_factor_not_found", "Factor not found");
        audit(s, "mfa_unenrolled", userId, admin.userId, client, {{"factor_id", factorId}});
    });
    return {{"id", factorId}};
}

nlohmann::json AuthService::invite(const http::Caller& admin, const nlohmann::json& body, const std::optional<std::string>& redirectTo,
                                   const ClientInfo& client) {
    const std::string email = requiredEmail(body);
    auto data = optionalObject(body, "data");
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (findUserByEmail(s, email))
            throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
        auto id = insertUser(s, email, std::nullopt, data, false, db::nowTimestamp());
        auto link = createLink(s, id, "invite", email, redirectTo);
        sendLink(tx, link, email);
        audit(s, "user_invited", id, admin.userId, client);
        result = userJson(s, *findUserById(s, id));
    });
    return result;
}

nlohmann::json AuthService::generateLink(const http::Caller& admin, const nlohmann::json& body, const ClientInfo& client) {
    const std::string type = optionalString(body, "type").value_or("");
    if (type != "signup" && type != "invite" && type != "recovery")
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "type must be signup, invite or recovery");
    const std::string email = requiredEmail(body);
    std::optional<std::string> redirectTo;
    if (body.contains("redirect_to") && body["redirect_to"].is_string()) redirectTo = body["redirect_to"].get<std::string>();
    else if (body.contains("options") && body["options"].is_object() && body["options"].contains("redirectTo") &&
             body["options"]["redirectTo"].is_string())
        redirectTo = body["options"]["redirectTo"].get<std::string>();
    std::optional<std::string> hash;
    if (type == "signup") hash = hasher_.hash(checkedNewPassword(body.contains("password") ? body["password"] : nlohmann::json()));
    auto data = optionalObject(body, "data");
    nlohmann::json result;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        auto user = findUserByEmail(s, email);
        if (type == "recovery" && !user) throw userNotFound();
        if (type != "recovery" && user)
            throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
        std::string id = user ? user->id
                              : insertUser(s, email, hash, data, false, type == "invite" ? std::optional(db::nowTimestamp()) : std::nullopt);
        auto link = createLink(s, id, type, email, redirectTo);
        audit(s, "link_generated", id, admin.userId, client, {{"type", type}});
        result = userJson(s, *findUserById(s, id));
        result["action_link"] = link.url;
        result["email_otp"] = "";
        result["hashed_token"] = "";
        result["redirect_to"] = link.redirectTo;
        result["verification_type"] = type;
    });
    return result;
}

AuthService::CreatedUser AuthService::createUserFromShell(const std::string& rawEmail, const std::optional<std::string>& password, bool admin) {
    const std::string email = normalizeEmail(rawEmail);
    if (!mail::isValidEmailAddress(email)) throw ApiError(ErrorKind::BadRequest, "email_address_invalid", "That is not a valid email address.");
    std::optional<std::string> hash;
    if (password) hash = hasher_.hash(checkedNewPassword(*password));
    CreatedUser created;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        if (findUserByEmail(s, email))
            throw ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
        created.id = insertUser(s, email, hash, nlohmann::json::object(), true, std::nullopt);
        std::string at = db::nowTimestamp(), id = created.id;
        if (admin) {
            s << db_.sql("INSERT INTO user_roles (user_id, role, granted_at) VALUES (?, 'admin', ?)"), use(id), use(at), now;
            audit(s, "role_granted", created.id, std::nullopt, ClientInfo{"shell", ""}, {{"role", "admin"}});
        }
        audit(s, "user_created", created.id, std::nullopt, ClientInfo{"shell", ""});
        if (!password) created.setPasswordLink = createLink(s, created.id, "invite", email, std::nullopt).url;
    });
    return created;
}

} // namespace storefront::auth

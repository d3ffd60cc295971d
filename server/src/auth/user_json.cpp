// Reading users and rendering GoTrue's user object.
#include "auth/auth_service.h"

#include "db/row.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/String.h>
#include <Poco/Timestamp.h>

using namespace Poco::Data::Keywords;

namespace storefront::auth {

namespace {

constexpr const char* kUserColumns =
    "SELECT CAST(id AS TEXT) AS id, email, phone, encrypted_password, "
    "CAST(email_confirmed_at AS TEXT) AS email_confirmed_at, CAST(confirmation_sent_at AS TEXT) AS confirmation_sent_at, "
    "CAST(recovery_sent_at AS TEXT) AS recovery_sent_at, CAST(invited_at AS TEXT) AS invited_at, email_change, "
    "CAST(email_change_sent_at AS TEXT) AS email_change_sent_at, CAST(banned_until AS TEXT) AS banned_until, "
    "CAST(last_sign_in_at AS TEXT) AS last_sign_in_at, raw_app_meta_data, raw_user_meta_data, "
    "CAST(created_at AS TEXT) AS created_at, CAST(updated_at AS TEXT) AS updated_at FROM users ";

nlohmann::json jsonObject(const std::string& text) {
    auto value = nlohmann::json::parse(text, nullptr, false);
    return value.is_object() ? value : nlohmann::json::object();
}

nlohmann::json orNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

std::string normalizeEmail(const std::string& email) { return Poco::toLower(Poco::trim(email)); }

long long unixNow() { return Poco::Timestamp().epochTime(); }

long long unixSeconds(const std::string& isoTimestamp) { return db::epochFromTimestamp(isoTimestamp); }

bool UserRecord::banned() const { return bannedUntil && *bannedUntil > db::nowTimestamp(); }

std::optional<UserRecord> AuthService::findUser(Poco::Data::Session& s, const std::string& where, const std::string& value) {
    Poco::Data::Statement select(s);
    std::string v = value;
    select << db_.sql(std::string(kUserColumns) + where), use(v);
    select.execute();
    Poco::Data::RecordSet rs(select);
    if (rs.rowCount() == 0) return std::nullopt;
    db::Row row(rs, 0);
    UserRecord u;
    u.id = row.text("id");
    u.email = row.optText("email");
    u.phone = row.optText("phone");
    u.encryptedPassword = row.optText("encrypted_password");
    u.emailConfirmedAt = row.optTimestamp("email_confirmed_at");
    u.confirmationSentAt = row.optTimestamp("confirmation_sent_at");
    u.recoverySentAt = row.optTimestamp("recovery_sent_at");
    u.invitedAt = row.optTimestamp("invited_at");
    u.emailChange = row.optText("email_change");
    u.emailChangeSentAt = row.optTimestamp("email_change_sent_at");
    u.bannedUntil = row.optTimestamp("banned_until");
    u.lastSignInAt = row.optTimestamp("last_sign_in_at");
    u.appMetadata = jsonObject(row.text("raw_app_meta_data"));
    u.userMetadata = jsonObject(row.text("raw_user_meta_data"));
    u.createdAt = row.timestamp("created_at");
    u.updatedAt = row.timestamp("updated_at");
    return u;
}

std::optional<UserRecord> AuthService::findUserById(Poco::Data::Session& s, const std::string& id) {
    return findUser(s, "WHERE id = ? AND deleted_at IS NULL", id);
}

std::optional<UserRecord> AuthService::findUserByEmail(Poco::Data::Session& s, const std::string& email) {
    return findUser(s, "WHERE lower(email) = ? AND deleted_at IS NULL", normalizeEmail(email));
}

std::vector<std::string> AuthService::roles(Poco::Data::Session& s, const std::string& userId) {
    std::vector<std::string> out;
    std::string id = userId;
    s << db_.sql("SELECT role FROM user_roles WHERE user_id = ? ORDER BY role"), use(id), into(out), now;
    return out;
}

nlohmann::json AuthService::factorsJson(Poco::Data::Session& s, const std::string& userId) {
    Poco::Data::Statement select(s);
    std::string id = userId;
    select << db_.sql("SELECT CAST(id AS TEXT) AS id, friendly_name, factor_type, status, CAST(created_at AS TEXT) AS created_at, "
                      "CAST(updated_at AS TEXT) AS updated_at FROM mfa_factors WHERE user_id = ? ORDER BY created_at"),
        use(id);
    select.execute();
    Poco::Data::RecordSet rs(select);
    auto factors = nlohmann::json::array();
    for (std::size_t i = 0; i < rs.rowCount(); ++i) {
        db::Row row(rs, i);
        factors.push_back({{"id", row.text("id")},
                           {"friendly_name", row.optText("friendly_name").value_or("")},
                           {"factor_type", row.text("factor_type")},
                           {"status", row.text("status")},
                           {"created_at", row.timestamp("created_at")},
                           {"updated_at", row.timestamp("updated_at")}});
    }
    return factors;
}

nlohmann::json AuthService::userJson(Poco::Data::Session& s, const UserRecord& u) {
    auto app = u.appMetadata;
    app["provider"] = "email";
    app["providers"] = nlohmann::json::array({"email"});
    app["roles"] = roles(s, u.id);
    const std::string email = u.email.value_or("");
    nlohmann::json identity = {
        {"identity_id", u.id},
        {"id", u.id},
        {"user_id", u.id},
        {"identity_data", {{"email", email}, {"email_verified", u.emailConfirmedAt.has_value()}, {"phone_verified", false}, {"sub", u.id}}},
        {"provider", "email"},
        {"last_sign_in_at", orNull(u.lastSignInAt)},
        {"created_at", u.createdAt},
        {"updated_at", u.updatedAt},
        {"email", email}};
    nlohmann::json j = {{"id", u.id},
                        {"aud", "authenticated"},
                        {"role", "authenticated"},
                        {"email", email},
                        {"email_confirmed_at", orNull(u.emailConfirmedAt)},
                        {"phone", u.phone.value_or("")},
                        {"confirmed_at", orNull(u.emailConfirmedAt)},
                        {"confirmation_sent_at", orNull(u.confirmationSentAt)},
                        {"recovery_sent_at", orNull(u.recoverySentAt)},
                        {"invited_at", orNull(u.invitedAt)},
                        {"last_sign_in_at", orNull(u.lastSignInAt)},
                        {"app_metadata", app},
                        {"user_metadata", u.userMetadata},
                        {"identities", nlohmann::json::array({identity})},
                        {"created_at", u.createdAt},
                        {"updated_at", u.updatedAt},
                        {"is_anonymous", false}};
    if (u.emailChange) {
        j["new_email"] = *u.emailChange;
        j["email_change_sent_at"] = orNull(u.emailChangeSentAt);
    }
    if (u.bannedUntil) j["banned_until"] = *u.bannedUntil;
    auto factors = factorsJson(s, u.id);
    if (!factors.empty()) j["factors"] = factors;
    return j;
}

} // namespace storefront::auth

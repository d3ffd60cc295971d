#include "auth/user_json.h"

namespace storefront::auth {

namespace {

nlohmann::json orNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json factorsJson(Context& ctx, Poco::Data::Session& s, const std::string& userId) {
    auto factors = nlohmann::json::array();
    for (const auto& f : ctx.factors.list(s, userId))
        factors.push_back({{"id", f.id},
                           {"friendly_name", f.friendlyName},
                           {"factor_type", f.factorType},
                           {"status", f.status},
                           {"created_at", f.createdAt},
                           {"updated_at", f.updatedAt}});
    return factors;
}

nlohmann::json userJson(Context& ctx, Poco::Data::Session& s, const UserRecord& u) {
    auto app = u.appMetadata;
    app["provider"] = "email";
    app["providers"] = nlohmann::json::array({"email"});
    app["roles"] = ctx.users.roles(s, u.id);
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
    auto factors = factorsJson(ctx, s, u.id);
    if (!factors.empty()) j["factors"] = factors;
    return j;
}

} // namespace storefront::auth

#include "auth/context.h"

#include "common/text.h"
#include "http/api_error.h"
#include "mail/mail_message.h"

#include <Poco/String.h>
#include <Poco/Timestamp.h>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

std::string normalizeEmail(const std::string& email) { return Poco::toLower(Poco::trim(email)); }

long long unixSeconds(const std::string& isoTimestamp) { return db::epochFromTimestamp(isoTimestamp); }

namespace {
// The name the account page and sign-up keep in user_metadata.full_name (and the profile).
constexpr std::size_t kMaxFullNameCharacters = 100;
} // namespace

void checkFullName(const nlohmann::json& data) {
    if (!data.is_object()) return;
    auto it = data.find("full_name");
    if (it == data.end() || it->is_null()) return;
    if (!it->is_string() || common::codePoints(it->get<std::string>()) > kMaxFullNameCharacters)
        throw ApiError(ErrorKind::Validation, "validation_failed", "full_name must be text of at most 100 characters");
    // It is the name in mail headers ("To: Ana <ana@...>") and in the customers' CSV: one line.
    if (!common::isOneLine(it->get<std::string>())) {
        ApiError e(ErrorKind::Validation, "validation_failed", "full_name must be one line, without line breaks or control characters");
        e.fields = {{"full_name", "Must be a single line of text."}};
        throw e;
    }
}

std::string checkedEmail(const std::optional<std::string>& email) {
    if (!email || email->empty()) throw ApiError(ErrorKind::BadRequest, "validation_failed", "An email address is required");
    auto normalized = normalizeEmail(*email);
    if (!mail::isValidEmailAddress(normalized))
        throw ApiError(ErrorKind::BadRequest, "email_address_invalid", "Unable to validate email address: invalid format");
    return normalized;
}

std::string checkedNewPassword(const Settings& settings, const std::optional<std::string>& password) {
    if (!password || password->empty())
        throw ApiError(ErrorKind::BadRequest, "validation_failed", "Signup requires a valid password");
    if (password->size() > kMaxPasswordBytes)
        throw ApiError(ErrorKind::Validation, "validation_failed",
                       "Password cannot be longer than " + std::to_string(kMaxPasswordBytes) + " characters");
    auto reasons = weakPasswordReasons(*password, settings.passwordMinLength);
    if (!reasons.empty()) {
        ApiError e(ErrorKind::Validation, "weak_password", weakPasswordMessage(reasons, settings.passwordMinLength));
        e.extra["weak_password"] = {{"reasons", reasons}};
        throw e;
    }
    return *password;
}

ApiError emailTaken() {
    return ApiError(ErrorKind::Validation, "email_exists", "A user with this email address has already been registered");
}

audit::Actor actorOf(const Principal& principal, const ClientInfo& client) {
    audit::Actor actor;
    actor.userId = principal.userId;
    if (!principal.email.empty()) actor.email = principal.email;
    actor.role = principal.staffAdmin ? "admin" : "customer";
    actor.aal = principal.aal;
    actor.clientAddress = client.ip;
    return actor;
}

audit::Actor anonymousActor(const ClientInfo& client) { return audit::systemActor("anonymous", client.ip); }

void recordEvent(db::Tx& tx, const std::string& event, const std::optional<std::string>& userId, const audit::Actor& actor,
                 const nlohmann::json& detail) {
    audit::record(tx, actor, {event, "user", userId, nullptr, nullptr, detail});
}

} // namespace storefront::auth

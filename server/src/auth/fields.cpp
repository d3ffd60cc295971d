#include "auth/fields.h"

#include "auth/auth_service.h"
#include "http/api_error.h"
#include "mail/mail_message.h"


using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::auth {

std::optional<std::string> optionalString(const nlohmann::json& body, const char* name) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " must be a string");
    return it->get<std::string>();
}

bool optionalBool(const nlohmann::json& body, const char* name, bool fallback) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " must be true or false");
    return it->get<bool>();
}

std::string requiredEmail(const nlohmann::json& body) {
    auto email = optionalString(body, "email");
    if (!email || email->empty()) throw ApiError(ErrorKind::BadRequest, "validation_failed", "An email address is required");
    auto normalized = normalizeEmail(*email);
    if (!mail::isValidEmailAddress(normalized))
        throw ApiError(ErrorKind::BadRequest, "email_address_invalid", "Unable to validate email address: invalid format");
    return normalized;
}

nlohmann::json optionalObject(const nlohmann::json& body, const char* name) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) return nlohmann::json::object();
    if (!it->is_object()) throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " must be an object");
    if (it->dump().size() > 16384) throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " is too large");
    return *it;
}

} // namespace storefront::auth

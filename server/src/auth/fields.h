#pragma once
// Reading the JSON bodies of /auth/v1 requests: one place for the checks both the user and the
// admin endpoints make, with GoTrue's error codes.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::auth {

// A string member, nullopt when absent or null; 400 validation_failed when not a string.
std::optional<std::string> optionalString(const nlohmann::json& body, const char* name);
// A boolean member, `fallback` when absent or null; 400 validation_failed when not a boolean.
bool optionalBool(const nlohmann::json& body, const char* name, bool fallback);
// body.email, normalised; 400 validation_failed when missing, 400 email_address_invalid when malformed.
std::string requiredEmail(const nlohmann::json& body);
// An object member (metadata), {} when absent or null; 400 when not an object or over 16 KiB.
nlohmann::json optionalObject(const nlohmann::json& body, const char* name);

} // namespace storefront::auth

#pragma once
// GoTrue's user object (GET /auth/v1/user, the token response's "user", the admin API).
#include "auth/context.h"

#include <nlohmann/json.hpp>

namespace storefront::auth {

nlohmann::json userJson(Context& ctx, Poco::Data::Session& s, const UserRecord& user);
// The user's factors as GoTrue lists them.
nlohmann::json factorsJson(Context& ctx, Poco::Data::Session& s, const std::string& userId);

} // namespace storefront::auth

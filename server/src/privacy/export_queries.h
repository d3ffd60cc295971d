#pragma once
// SQL for "Download my data" (GET /api/v1/account/export): everything Storefront holds about one
// user, read across the areas' tables in one snapshot, as the JSON the file carries. Secrets
// (password hash, TOTP secrets, token hashes, refresh tokens) are never selected.
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::privacy {

class ExportQueries {
public:
    // The user's data; nullopt when there is no such live user.
    std::optional<nlohmann::json> read(Poco::Data::Session& s, const std::string& userId);
};

} // namespace storefront::privacy

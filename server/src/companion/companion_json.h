#pragma once
// The companion area's JSON shapes (snake_case as in the spec), shared by the routes and the
// audit entries.
#include "companion/companion_repository.h"

#include <nlohmann/json.hpp>

namespace storefront::companion {

nlohmann::json toJson(const Worker& worker);
nlohmann::json toJson(const Certificate& certificate);
nlohmann::json toJson(const PromoCode& code);

} // namespace storefront::companion

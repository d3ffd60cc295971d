#pragma once
// The JSON shapes of the enterprise API (docs/openapi.yaml, "Enterprise"), also used for the audit
// log's before/after.
#include "enterprise/account_repository.h"
#include "enterprise/licence_repository.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace storefront::enterprise {

nlohmann::json accountJson(const Account& account);
nlohmann::json memberJson(const Member& member);
nlohmann::json licenceJson(const Licence& licence);
nlohmann::json membersJson(const std::vector<Member>& members);
nlohmann::json licencesJson(const std::vector<Licence>& licences);

} // namespace storefront::enterprise

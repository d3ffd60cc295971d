#include "enterprise/access.h"

#include "common/text.h"

namespace storefront::enterprise {

http::ApiError noAccount() {
    return http::ApiError::notFound("enterprise_account_not_found", "No Enterprise Account");
}

void requireEnterpriseAdmin(AccountRepository& accounts, const http::Request& request) {
    const auto* caller = request.caller();
    if (!caller) throw http::ApiError(http::ErrorKind::Unauthorized, "not_authenticated", "Sign in to continue.");
    const auto& accountId = request.param("accountId");
    if (!accountId.empty()) {
        if (!common::isUuid(accountId) || !accounts.isAdminOf(caller->userId, accountId)) throw noAccount();
        return;
    }
    if (!accounts.findAdministeredBy(caller->userId)) throw noAccount();
}

} // namespace storefront::enterprise

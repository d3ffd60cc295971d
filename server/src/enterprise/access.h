#pragma once
// Who may use Access::EnterpriseAdmin routes: the admin of an enterprise account. The router runs
// this after the authoriser has signed the caller in (http::Router::check). On a route with an
// {accountId} parameter the caller must administer *that* account. Anyone else gets 404, never
// 403, so account ids cannot be probed.
#include "enterprise/account_repository.h"
#include "http/api_error.h"
#include "http/request.h"

namespace storefront::enterprise {

// The one answer for "no such account of yours": 404 enterprise_account_not_found.
http::ApiError noAccount();

void requireEnterpriseAdmin(AccountRepository& accounts, const http::Request& request);

} // namespace storefront::enterprise

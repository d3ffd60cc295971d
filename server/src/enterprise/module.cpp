#include "enterprise/module.h"

#include "enterprise/routes.h"

namespace storefront::enterprise {

void Module::routes(http::Router& router) { registerRoutes(router, accounts_); }

} // namespace storefront::enterprise

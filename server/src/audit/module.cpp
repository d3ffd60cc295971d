#include "audit/module.h"

#include "audit/routes.h"

namespace storefront::audit {

void Module::routes(http::Router& router) { registerRoutes(router, log_); }

} // namespace storefront::audit

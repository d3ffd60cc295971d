#include "privacy/module.h"

#include "privacy/routes.h"

namespace storefront::privacy {

void Module::routes(http::Router& router) { registerRoutes(router, service_, clock_); }

} // namespace storefront::privacy

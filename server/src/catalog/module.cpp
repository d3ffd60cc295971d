#include "catalog/module.h"

#include "catalog/routes.h"

namespace storefront::catalog {

void Module::routes(http::Router& router) { registerRoutes(router, products_, cache_); }

} // namespace storefront::catalog

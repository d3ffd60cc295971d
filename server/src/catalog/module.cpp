#include "catalog/module.h"

#include "catalog/admin_routes.h"
#include "catalog/routes.h"

namespace storefront::catalog {

void Module::routes(http::Router& router) {
    registerRoutes(router, products_, cache_);
    registerAdminRoutes(router, products_, admin_, images_);
}

} // namespace storefront::catalog

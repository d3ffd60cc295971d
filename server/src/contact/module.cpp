#include "contact/module.h"

#include "contact/admin_routes.h"
#include "contact/routes.h"

namespace storefront::contact {

void Module::routes(http::Router& router) {
    registerRoutes(router, service_, limiter_, limits_.perWindow, limits_.windowSeconds);
    registerAdminRoutes(router, admin_);
}

} // namespace storefront::contact

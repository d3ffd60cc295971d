#pragma once
// Staff billing routes (docs/openapi.yaml, "Back office"): subscriptions and orders.
#include "billing/order_admin.h"
#include "http/router.h"

namespace storefront::billing {

void registerAdminRoutes(http::Router& router, OrderAdmin& admin);

} // namespace storefront::billing

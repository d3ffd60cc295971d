#pragma once
// Staff billing routes (docs/openapi.yaml, "Back office"): subscriptions and orders.
#include "billing/order_admin.h"

#include <string>
#include <vector>
#include "http/router.h"

namespace storefront::billing {

// `shippingCountries`: where staff may send an order's goods (STOREFRONT_SHIPPING_COUNTRIES).
void registerAdminRoutes(http::Router& router, OrderAdmin& admin, std::vector<std::string> shippingCountries);

} // namespace storefront::billing

#pragma once
#include "catalog/product_repository.h"
#include "http/router.h"

namespace storefront::catalog {

// GET /api/v1/products, GET /api/v1/products/{slug}
void registerRoutes(http::Router& router, ProductRepository& products);

} // namespace storefront::catalog

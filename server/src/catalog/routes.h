#pragma once
#include "catalog/product_repository.h"
#include "http/response_cache.h"
#include "http/router.h"

namespace storefront::catalog {

// GET /api/v1/products, GET /api/v1/products/{slug}
void registerRoutes(http::Router& router, ProductRepository& products, http::ResponseCache& cache);

} // namespace storefront::catalog

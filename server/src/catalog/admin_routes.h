#pragma once
// Staff catalogue routes (docs/openapi.yaml, "Back office"): products, pricing plans, the image
// picker and uploads, and GET /uploads/{name}.
#include "catalog/admin_service.h"
#include "catalog/image_store.h"
#include "catalog/product_repository.h"
#include "http/router.h"

namespace storefront::catalog {

void registerAdminRoutes(http::Router& router, ProductRepository& products, CatalogAdmin& admin, ImageStore& images);

} // namespace storefront::catalog

#pragma once
// The catalogue area: products and pricing plans, the public catalogue routes (served through the
// shared response cache, which app wiring clears when a transaction notifies db::topic::kCatalog),
// and the staff's product, plan and image routes.
#include "catalog/admin_service.h"
#include "catalog/image_store.h"
#include "catalog/product_repository.h"
#include "common/module.h"
#include "http/response_cache.h"

#include <string>

namespace storefront::catalog {

class Module : public storefront::Module {
public:
    // `webDir`: the web build (its products/<folder>/ pictures); `dataDir`: where uploads are kept.
    // `maxImagePixels`: uploads with more pixels are refused from their header (STOREFRONT_IMAGE_MAX_PIXELS).
    Module(db::Database& db, http::ResponseCache& cache, std::string webDir, std::string dataDir,
           std::int64_t maxImagePixels = kDefaultMaxImagePixels)
        : products_(db), cache_(cache), images_(db, std::move(webDir), std::move(dataDir)),
          admin_(db, products_, images_, maxImagePixels) {}
    std::string_view name() const override { return "catalog"; }
    void routes(http::Router& router) override;

    ProductRepository& products() { return products_; }
    ImageStore& images() { return images_; }

private:
    ProductRepository products_;
    http::ResponseCache& cache_;
    ImageStore images_;
    CatalogAdmin admin_;
};

} // namespace storefront::catalog

#pragma once
// The catalogue area: products and pricing plans, and the public catalogue routes (served through
// the shared response cache, which app wiring clears when a transaction notifies db::topic::kCatalog).
#include "catalog/product_repository.h"
#include "common/module.h"
#include "http/response_cache.h"

namespace storefront::catalog {

class Module : public storefront::Module {
public:
    Module(db::Database& db, http::ResponseCache& cache) : products_(db), cache_(cache) {}
    std::string_view name() const override { return "catalog"; }
    void routes(http::Router& router) override;

    ProductRepository& products() { return products_; }

private:
    ProductRepository products_;
    http::ResponseCache& cache_;
};

} // namespace storefront::catalog

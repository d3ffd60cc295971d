#include "catalog/routes.h"

#include "catalog/product_json.h"
#include "catalog/slug.h"
#include "http/api_error.h"

namespace storefront::catalog {

void registerRoutes(http::Router& router, ProductRepository& products) {
    router.get("/api/v1/products", http::Access::Anyone, [&products](http::Request&, http::Response& res) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : products.listActive()) list.push_back(toJson(p, false));
        res.json(200, {{"products", std::move(list)}});
        res.set("Cache-Control", "no-cache");
    });

    router.get("/api/v1/products/{slug}", http::Access::Anyone, [&products](http::Request& req, http::Response& res) {
        const auto& slug = req.param("slug");
        std::optional<Product> product;
        if (isValidSlug(slug)) product = products.findActiveBySlug(slug);
        if (!product) throw http::ApiError::notFound("product_not_found", "Product Not Found");
        res.json(200, {{"product", toJson(*product, true)}});
        res.set("Cache-Control", "no-cache");
    });
}

} // namespace storefront::catalog

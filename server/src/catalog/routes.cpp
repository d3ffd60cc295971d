#include "catalog/routes.h"

#include "catalog/product_json.h"
#include "catalog/slug.h"
#include "http/api_error.h"

namespace storefront::catalog {

void registerRoutes(http::Router& router, ProductRepository& products, http::ResponseCache& cache) {
    router.get("/api/v1/products", http::Access::Anyone, [&products, &cache](http::Request&, http::Response& res) {
        cache.serve("api:products", res, [&products](http::Response& out) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& p : products.listActive()) list.push_back(toJson(p, false));
            out.json(200, {{"products", std::move(list)}});
            out.set("Cache-Control", "no-cache");
        });
    });

    router.get("/api/v1/products/{slug}", http::Access::Anyone, [&products, &cache](http::Request& req, http::Response& res) {
        const auto& slug = req.param("slug");
        if (!isValidSlug(slug)) throw http::ApiError::notFound("product_not_found", "Product Not Found");
        cache.serve("api:product:" + slug, res, [&products, &slug](http::Response& out) {
            auto product = products.findActiveBySlug(slug);
            if (!product) throw http::ApiError::notFound("product_not_found", "Product Not Found");
            out.json(200, {{"product", toJson(*product, true)}});
            out.set("Cache-Control", "no-cache");
        });
    });
    // From the response cache (a miss is one short read): answered by the event loop itself.
    router.runOnLoop("/api/v1/products");
    router.runOnLoop("/api/v1/products/{slug}");
}

} // namespace storefront::catalog

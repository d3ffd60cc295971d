#pragma once
// The staff's catalogue changes (docs/backoffice.md): products and their pricing plans. Each change
// is one transaction that also records its audit entry and notifies db::topic::kCatalog, so the
// public pages, JSON-LD and sitemap show it at once. Input arrives typed and checked for form
// (catalog/admin_routes.cpp); the rules that need the database live here: a taken slug is 409
// slug_taken, deleting what orders, subscriptions or licences refer to is 409 *_in_use.
#include "audit/audit.h"
#include "catalog/image_store.h"
#include "catalog/product.h"
#include "catalog/product_repository.h"
#include "db/database.h"

#include <functional>
#include <string>

namespace storefront::catalog {

class CatalogAdmin {
public:
    CatalogAdmin(db::Database& db, ProductRepository& products, ImageStore& images,
                 std::int64_t maxImagePixels = kDefaultMaxImagePixels)
        : db_(db), products_(products), images_(images), maxImagePixels_(maxImagePixels) {}

    // `input` is the product as it should be (id and created_at are set here).
    Product createProduct(const audit::Actor& actor, Product input);
    // `change` turns the product as it is now into what it should be; it runs inside the
    // transaction and may throw (a 422 rolls everything back). 404 product_not_found.
    Product updateProduct(const audit::Actor& actor, const std::string& id, const std::function<Product(const Product&)>& change);
    // 404 product_not_found, 409 product_in_use.
    void deleteProduct(const audit::Actor& actor, const std::string& id);

    // 404 product_not_found.
    PricingPlan createPlan(const audit::Actor& actor, const std::string& productId, PricingPlan input);
    // 404 plan_not_found.
    PricingPlan updatePlan(const audit::Actor& actor, const std::string& planId,
                           const std::function<PricingPlan(const PricingPlan&)>& change);
    // 404 plan_not_found, 409 plan_in_use.
    void deletePlan(const audit::Actor& actor, const std::string& planId);

    // Checks, strips and stores an upload with its narrower copies, and audits it. 422 with an
    // "image" field error: unsupported_image (not PNG, JPEG or WebP by content), invalid_image (not
    // a whole image), image_too_large (over the pixel limit, named in the message).
    Image uploadImage(const audit::Actor& actor, std::string_view bytes);

private:
    void checkSlugFree(db::Tx& tx, const std::string& slug, const std::string& exceptId);

    db::Database& db_;
    ProductRepository& products_;
    ImageStore& images_;
    std::int64_t maxImagePixels_;
};

} // namespace storefront::catalog

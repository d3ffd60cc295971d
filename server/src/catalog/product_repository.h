#pragma once
// SQL for the catalogue: products and their pricing plans.
#include "catalog/product.h"
#include "db/database.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::catalog {

class ProductRepository {
public:
    explicit ProductRepository(db::Database& db) : db_(db) {}

    // Active products, oldest first, without plans (landing page, sitemap).
    std::vector<Product> listActive();
    // One active product with its plans ordered by sort_order; nullopt when missing or inactive.
    std::optional<Product> findActiveBySlug(const std::string& slug);
    // The id of the active product with this slug.
    std::optional<std::string> activeIdBySlug(const std::string& slug);

private:
    db::Database& db_;
};

} // namespace storefront::catalog

#pragma once
// SQL for the catalogue: products and their pricing plans.
#include "catalog/product.h"
#include "db/database.h"

#include <cstdint>
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

    // ---- staff (catalog/admin_service.h) ----

    struct Page {
        std::vector<Product> products; // each with its plans
        std::int64_t total = 0;
    };
    // Every product, active or not, newest first, with plans; `q` matches name or slug (a LIKE pattern
    // from http::likePattern), absent for all.
    Page listAll(const std::optional<std::string>& likeQ, std::int64_t limit, std::int64_t offset);
    // One product, active or not, with its plans.
    std::optional<Product> findById(db::Tx& tx, const std::string& id);
    bool slugTaken(db::Tx& tx, const std::string& slug, const std::string& exceptId);
    void insert(db::Tx& tx, const Product& product);
    void update(db::Tx& tx, const Product& product);
    // Orders, subscriptions, licences or checkouts refer to it.
    bool inUse(db::Tx& tx, const std::string& id);
    void remove(db::Tx& tx, const std::string& id);

    std::optional<PricingPlan> findPlan(db::Tx& tx, const std::string& planId);
    void insertPlan(db::Tx& tx, const PricingPlan& plan);
    void updatePlan(db::Tx& tx, const PricingPlan& plan);
    // Subscriptions use it.
    bool planInUse(db::Tx& tx, const std::string& planId);
    void removePlan(db::Tx& tx, const std::string& planId);

private:
    db::Database& db_;
};

} // namespace storefront::catalog

#pragma once
// SQL for the catalogue: products and their pricing plans.
#include "catalog/product.h"
#include "db/database.h"
#include "db/list.h"

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

    // Every product, active or not, newest first, each with its plans; `search` (the term as typed)
    // matches a part of the name or slug, absent for all.
    db::Page<Product> listAll(const std::optional<std::string>& search, db::PageQuery query);
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

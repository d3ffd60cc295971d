#include "catalog/product_repository.h"

#include "catalog/html_sanitizer.h"
#include "db/list.h"
#include "db/query.h"

#include <nlohmann/json.hpp>

namespace storefront::catalog {

namespace {

constexpr const char* kProductColumns =
    "CAST(id AS TEXT) AS id, slug, name, description, description_detail, meta_keywords, type, icon_url, "
    "picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing, "
    "price_nzd, billing_interval, CAST(created_at AS TEXT) AS created_at, "
    // An uploaded picture's srcset, found by primary key (its URL is /uploads/<name>).
    "(SELECT images.srcset FROM images WHERE images.name = substr(products.picture_url, 10) "
    "AND substr(products.picture_url, 1, 9) = '/uploads/' AND images.original_name IS NULL) AS picture_srcset";

const std::string kListActive =
    std::string("SELECT ") + kProductColumns + " FROM products WHERE is_active = TRUE ORDER BY created_at ASC, slug ASC";
const std::string kFindActiveBySlug =
    std::string("SELECT ") + kProductColumns + " FROM products WHERE slug = ? AND is_active = TRUE";
constexpr const char* kActiveIdBySlug = "SELECT CAST(id AS TEXT) FROM products WHERE slug = ? AND is_active = TRUE";
constexpr const char* kPlansForProduct =
    "SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, name, price_amount, currency, "
    "billing_frequency_value, billing_frequency_unit, sort_order, trial_days FROM pricing_plans "
    "WHERE product_id = ? ORDER BY sort_order ASC, name ASC";

// ---- staff ----
const std::string kListAllColumns = std::string("SELECT ") + kProductColumns + " FROM products";
constexpr const char* kWhereQ = "(LOWER(name) LIKE ? ESCAPE '\\' OR slug LIKE ? ESCAPE '\\')";
// products_created_at_idx serves this order.
constexpr const char* kNewestFirst = "created_at DESC, id DESC";
constexpr const char* kCountAll = "SELECT COUNT(*) FROM products";
const std::string kFindById = std::string("SELECT ") + kProductColumns + " FROM products WHERE id = ?";
constexpr const char* kSlugUsed = "SELECT 1 FROM products WHERE slug = ?";
constexpr const char* kSlugUsedByAnother = "SELECT 1 FROM products WHERE slug = ? AND id <> ?";
constexpr const char* kInsertProduct =
    "INSERT INTO products (id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url, "
    "stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing, price_nzd, "
    "billing_interval, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUpdateProduct =
    "UPDATE products SET slug = ?, name = ?, description = ?, description_detail = ?, meta_keywords = ?, type = ?, "
    "icon_url = ?, picture_url = ?, stock_quantity = ?, track_inventory = ?, is_active = ?, features = ?, action_type = ?, "
    "action_url = ?, show_pricing = ?, price_nzd = ?, billing_interval = ?, updated_at = ? WHERE id = ?";
constexpr const char* kProductInUse =
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM order_items WHERE product_id = ?) "
    "OR EXISTS (SELECT 1 FROM subscriptions WHERE product_id = ?) "
    "OR EXISTS (SELECT 1 FROM enterprise_licenses WHERE product_id = ?) "
    "OR EXISTS (SELECT 1 FROM checkout_sessions WHERE product_id = ?)";
constexpr const char* kDeleteProduct = "DELETE FROM products WHERE id = ?";
constexpr const char* kPlanColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, name, price_amount, currency, "
    "billing_frequency_value, billing_frequency_unit, sort_order, trial_days FROM pricing_plans ";
const std::string kFindPlan = std::string(kPlanColumns) + "WHERE id = ?";
constexpr const char* kInsertPlan =
    "INSERT INTO pricing_plans (id, product_id, name, price_amount, currency, billing_frequency_value, "
    "billing_frequency_unit, sort_order, trial_days, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUpdatePlan =
    "UPDATE pricing_plans SET name = ?, price_amount = ?, currency = ?, billing_frequency_value = ?, "
    "billing_frequency_unit = ?, sort_order = ?, trial_days = ?, updated_at = ? WHERE id = ?";
constexpr const char* kPlanInUse =
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM subscriptions WHERE pricing_plan_id = ?)";
constexpr const char* kDeletePlan = "DELETE FROM pricing_plans WHERE id = ?";

std::vector<std::string> parseFeatures(const std::optional<std::string>& text) {
    std::vector<std::string> out;
    if (!text || text->empty()) return out;
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (!j.is_array()) return out;
    for (const auto& item : j)
        if (item.is_string()) out.push_back(item.get<std::string>());
    return out;
}

// Rich text leaves the server only through the allowlist, whatever reached the table (an admin
// form, a seed, a hand-written SQL fix). Oversized text is withheld rather than parsed.
std::string safeRichText(const std::string& html) {
    return richTextWithinLimits(html) ? sanitizeRichText(html) : std::string();
}

Product readProduct(const db::Row& r) {
    Product p;
    p.id = r.text("id");
    p.slug = r.text("slug");
    p.name = r.text("name");
    p.description = safeRichText(r.text("description"));
    if (auto detail = r.optText("description_detail")) p.descriptionDetail = safeRichText(*detail);
    p.metaKeywords = r.optText("meta_keywords");
    p.type = r.text("type");
    p.iconUrl = r.text("icon_url");
    p.pictureUrl = r.optText("picture_url");
    p.pictureSrcset = r.optText("picture_srcset");
    p.stockQuantity = r.optInt64("stock_quantity");
    p.trackInventory = r.boolean("track_inventory");
    p.isActive = r.boolean("is_active");
    p.features = parseFeatures(r.optText("features"));
    p.actionType = r.optText("action_type");
    p.actionUrl = r.optText("action_url");
    p.showPricing = r.boolean("show_pricing");
    p.priceNzd = r.int64("price_nzd");
    p.billingInterval = r.optText("billing_interval");
    p.createdAt = r.timestamp("created_at");
    return p;
}

PricingPlan readPlan(const db::Row& r) {
    PricingPlan plan;
    plan.id = r.text("id");
    plan.productId = r.text("product_id");
    plan.name = r.text("name");
    plan.priceAmount = r.int64("price_amount");
    plan.currency = r.text("currency");
    plan.billingFrequencyValue = static_cast<int>(r.int64("billing_frequency_value"));
    plan.billingFrequencyUnit = r.text("billing_frequency_unit");
    plan.sortOrder = static_cast<int>(r.int64("sort_order"));
    plan.trialDays = static_cast<int>(r.int64("trial_days"));
    return plan;
}

} // namespace

std::vector<Product> ProductRepository::listActive() {
    auto s = db_.session();
    return db::query(s, kListActive).all(readProduct);
}

std::optional<Product> ProductRepository::findActiveBySlug(const std::string& slug) {
    auto s = db_.session();
    auto product = db::query(s, kFindActiveBySlug).bind(slug).one(readProduct);
    if (product) product->plans = db::query(s, kPlansForProduct).bind(product->id).all(readPlan);
    return product;
}

namespace {

// The plans of `products`, one query for the page: `IN (?, ?, ...)` with one placeholder per product.
void attachPlans(Poco::Data::Session& s, std::vector<Product>& products) {
    if (products.empty()) return;
    std::string sql = std::string(kPlanColumns) + "WHERE product_id IN (";
    for (std::size_t i = 0; i < products.size(); ++i) sql += i ? ", ?" : "?";
    sql += ") ORDER BY sort_order ASC, name ASC";
    auto q = db::query(s, sql);
    for (const auto& p : products) q.bind(p.id);
    for (auto& plan : q.all(readPlan))
        for (auto& p : products)
            if (p.id == plan.productId) p.plans.push_back(plan);
}

std::string featuresText(const std::vector<std::string>& features) { return nlohmann::json(features).dump(); }

} // namespace

db::Page<Product> ProductRepository::listAll(const std::optional<std::string>& search, db::PageQuery query) {
    auto s = db_.session();
    db::Where where(s);
    if (search) {
        const auto p = db::likePattern(*search);
        where.add(kWhereQ, {p, p});
    }
    query.orderBy = kNewestFirst;
    auto page = db::countedPageOf<Product>(s, kListAllColumns, nullptr, kCountAll, where, query, readProduct);
    attachPlans(s, page.items);
    return page;
}

std::optional<Product> ProductRepository::findById(db::Tx& tx, const std::string& id) {
    auto product = tx.query(kFindById).bind(id).one(readProduct);
    if (product) product->plans = tx.query(kPlansForProduct).bind(product->id).all(readPlan);
    return product;
}

bool ProductRepository::slugTaken(db::Tx& tx, const std::string& slug, const std::string& exceptId) {
    // No id to compare with an empty text (PostgreSQL refuses '' as a UUID).
    if (exceptId.empty()) return tx.query(kSlugUsed).bind(slug).exists();
    return tx.query(kSlugUsedByAnother).bind(slug, exceptId).exists();
}

void ProductRepository::insert(db::Tx& tx, const Product& p) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertProduct)
        .bind(p.id, p.slug, p.name, p.description, p.descriptionDetail, p.metaKeywords, p.type, p.iconUrl, p.pictureUrl)
        .bind(p.stockQuantity, p.trackInventory, p.isActive, featuresText(p.features), p.actionType, p.actionUrl)
        .bind(p.showPricing, p.priceNzd, p.billingInterval, at, at)
        .run();
}

void ProductRepository::update(db::Tx& tx, const Product& p) {
    tx.query(kUpdateProduct)
        .bind(p.slug, p.name, p.description, p.descriptionDetail, p.metaKeywords, p.type, p.iconUrl, p.pictureUrl)
        .bind(p.stockQuantity, p.trackInventory, p.isActive, featuresText(p.features), p.actionType, p.actionUrl)
        .bind(p.showPricing, p.priceNzd, p.billingInterval, tx.clock().nowTimestamp(), p.id)
        .run();
}

bool ProductRepository::inUse(db::Tx& tx, const std::string& id) {
    return tx.query(kProductInUse).bind(id, id, id, id).exists();
}

void ProductRepository::remove(db::Tx& tx, const std::string& id) { tx.query(kDeleteProduct).bind(id).run(); }

std::optional<PricingPlan> ProductRepository::findPlan(db::Tx& tx, const std::string& planId) {
    return tx.query(kFindPlan).bind(planId).one(readPlan);
}

void ProductRepository::insertPlan(db::Tx& tx, const PricingPlan& p) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertPlan)
        .bind(p.id, p.productId, p.name, p.priceAmount, p.currency, p.billingFrequencyValue, p.billingFrequencyUnit)
        .bind(p.sortOrder, p.trialDays, at, at)
        .run();
}

void ProductRepository::updatePlan(db::Tx& tx, const PricingPlan& p) {
    tx.query(kUpdatePlan)
        .bind(p.name, p.priceAmount, p.currency, p.billingFrequencyValue, p.billingFrequencyUnit, p.sortOrder, p.trialDays)
        .bind(tx.clock().nowTimestamp(), p.id)
        .run();
}

bool ProductRepository::planInUse(db::Tx& tx, const std::string& planId) {
    return tx.query(kPlanInUse).bind(planId).exists();
}

void ProductRepository::removePlan(db::Tx& tx, const std::string& planId) { tx.query(kDeletePlan).bind(planId).run(); }

std::optional<std::string> ProductRepository::activeIdBySlug(const std::string& slug) {
    auto s = db_.session();
    return db::query(s, kActiveIdBySlug).bind(slug).text();
}

} // namespace storefront::catalog

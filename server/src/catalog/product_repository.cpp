#include "catalog/product_repository.h"

#include "catalog/html_sanitizer.h"
#include "db/query.h"

#include <nlohmann/json.hpp>

namespace storefront::catalog {

namespace {

constexpr const char* kProductColumns =
    "CAST(id AS TEXT) AS id, slug, name, description, description_detail, meta_keywords, type, icon_url, "
    "picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing, "
    "price_nzd, billing_interval, CAST(created_at AS TEXT) AS created_at";

const std::string kListActive =
    std::string("SELECT ") + kProductColumns + " FROM products WHERE is_active = TRUE ORDER BY created_at ASC, slug ASC";
const std::string kFindActiveBySlug =
    std::string("SELECT ") + kProductColumns + " FROM products WHERE slug = ? AND is_active = TRUE";
constexpr const char* kActiveIdBySlug = "SELECT CAST(id AS TEXT) FROM products WHERE slug = ? AND is_active = TRUE";
constexpr const char* kPlansForProduct =
    "SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, name, price_amount, currency, "
    "billing_frequency_value, billing_frequency_unit, sort_order FROM pricing_plans "
    "WHERE product_id = ? ORDER BY sort_order ASC, name ASC";

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

std::optional<std::string> ProductRepository::activeIdBySlug(const std::string& slug) {
    auto s = db_.session();
    return db::query(s, kActiveIdBySlug).bind(slug).text();
}

} // namespace storefront::catalog

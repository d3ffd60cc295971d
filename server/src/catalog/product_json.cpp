#include "catalog/product_json.h"

namespace storefront::catalog {
namespace {

template <typename T>
nlohmann::json orNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json toJson(const PricingPlan& plan) {
    return {
        {"id", plan.id},
        {"name", plan.name},
        {"price_amount", plan.priceAmount},
        {"currency", plan.currency},
        {"billing_frequency_value", plan.billingFrequencyValue},
        {"billing_frequency_unit", plan.billingFrequencyUnit},
        {"sort_order", plan.sortOrder},
        {"trial_days", plan.trialDays},
    };
}

nlohmann::json toJson(const Product& product, bool withPlans) {
    nlohmann::json j = {
        {"id", product.id},
        {"slug", product.slug},
        {"name", product.name},
        {"description", product.description},
        {"description_detail", orNull(product.descriptionDetail)},
        {"meta_keywords", orNull(product.metaKeywords)},
        {"type", product.type},
        {"icon_url", product.iconUrl},
        {"picture_url", orNull(product.pictureUrl)},
        {"picture_srcset", orNull(product.pictureSrcset)},
        {"stock_quantity", orNull(product.stockQuantity)},
        {"track_inventory", product.trackInventory},
        {"is_active", product.isActive},
        {"features", product.features},
        {"action_type", orNull(product.actionType)},
        {"action_url", orNull(product.actionUrl)},
        {"show_pricing", product.showPricing},
        {"price_nzd", product.priceNzd},
        {"billing_interval", orNull(product.billingInterval)},
        {"created_at", product.createdAt},
    };
    if (withPlans) {
        nlohmann::json plans = nlohmann::json::array();
        for (const PricingPlan& plan : product.plans) plans.push_back(toJson(plan));
        j["plans"] = std::move(plans);
    }
    return j;
}

nlohmann::json staffJson(const PricingPlan& plan) {
    auto j = toJson(plan);
    j["product_id"] = plan.productId;
    return j;
}

nlohmann::json staffJson(const Product& product) {
    auto j = toJson(product, true);
    for (auto& plan : j["plans"]) plan["product_id"] = product.id;
    return j;
}

} // namespace storefront::catalog

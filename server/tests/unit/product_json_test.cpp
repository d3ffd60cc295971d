#include "catalog/product_json.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using nlohmann::json;
using storefront::catalog::PricingPlan;
using storefront::catalog::Product;
using storefront::catalog::toJson;

Product full() {
    Product p;
    p.id = "6f1c0a52-1b0e-4a57-9d57-3c5ad0f8e001";
    p.slug = "hhtraff";
    p.name = "HHTraff Terminal";
    p.description = "<p>Short</p>";
    p.descriptionDetail = "<p>Detail</p>";
    p.metaKeywords = "traffic, serial";
    p.type = "physical";
    p.iconUrl = "/products/hhtraff/hhtraff-icon.svg";
    p.pictureUrl = "/products/hhtraff/picture.png";
    p.stockQuantity = 4;
    p.trackInventory = true;
    p.isActive = true;
    p.features = {"Bluetooth", "RS-485"};
    p.actionType = "google_play";
    p.actionUrl = "https://play.google.com/store/apps/details?id=x";
    p.showPricing = false;
    p.priceNzd = 4900;
    p.billingInterval = "month";
    p.createdAt = "2026-11-23T09:26:51.000Z";
    PricingPlan plan;
    plan.id = "plan-1";
    plan.productId = p.id;
    plan.name = "Monthly";
    plan.priceAmount = 1500;
    plan.currency = "NZD";
    plan.billingFrequencyValue = 1;
    plan.billingFrequencyUnit = "month";
    plan.sortOrder = 0;
    p.plans = {plan};
    return p;
}

std::set<std::string> keys(const json& j) {
    std::set<std::string> out;
    for (const auto& [k, v] : j.items()) out.insert(k);
    return out;
}

const std::set<std::string> kProductKeys = {
    "id", "slug", "name", "description", "description_detail", "meta_keywords", "type", "icon_url",
    "picture_url", "picture_srcset", "stock_quantity", "track_inventory", "is_active", "features", "action_type", "action_url",
    "show_pricing", "price_nzd", "billing_interval", "created_at"};

TEST(ProductJson, AllFieldsInSnakeCase) {
    const json j = toJson(full(), false);
    EXPECT_EQ(keys(j), kProductKeys);
    EXPECT_EQ(j, json::parse(R"({
        "id": "6f1c0a52-1b0e-4a57-9d57-3c5ad0f8e001", "slug": "hhtraff", "name": "HHTraff Terminal",
        "description": "<p>Short</p>", "description_detail": "<p>Detail</p>",
        "meta_keywords": "traffic, serial", "type": "physical",
        "icon_url": "/products/hhtraff/hhtraff-icon.svg", "picture_url": "/products/hhtraff/picture.png", "picture_srcset": null,
        "stock_quantity": 4, "track_inventory": true, "is_active": true,
        "features": ["Bluetooth", "RS-485"], "action_type": "google_play",
        "action_url": "https://play.google.com/store/apps/details?id=x", "show_pricing": false,
        "price_nzd": 4900, "billing_interval": "month", "created_at": "2026-11-23T09:26:51.000Z"
    })"));
}

TEST(ProductJson, EmptyOptionalsAreNull) {
    Product p = full();
    p.descriptionDetail.reset();
    p.metaKeywords.reset();
    p.pictureUrl.reset();
    p.stockQuantity.reset();
    p.actionType.reset();
    p.actionUrl.reset();
    p.billingInterval.reset();
    p.features.clear();
    const json j = toJson(p, false);
    EXPECT_EQ(keys(j), kProductKeys);
    for (const char* k : {"description_detail", "meta_keywords", "picture_url", "picture_srcset", "stock_quantity", "action_type",
                          "action_url", "billing_interval"})
        EXPECT_TRUE(j.at(k).is_null()) << k;
    EXPECT_TRUE(j.at("features").is_array());
    EXPECT_TRUE(j.at("features").empty());
}

TEST(ProductJson, NumbersAreIntegersInMinorUnits) {
    Product p = full();
    p.priceNzd = 123456789012;
    p.stockQuantity = 0;
    const json j = toJson(p, false);
    EXPECT_TRUE(j.at("price_nzd").is_number_integer());
    EXPECT_EQ(j.at("price_nzd"), 123456789012);
    EXPECT_EQ(j.at("stock_quantity"), 0);
    EXPECT_EQ(j.dump().find("\"price_nzd\":123456789012"), j.dump().find("\"price_nzd\""));
}

TEST(ProductJson, PlansOnlyWhenRequested) {
    EXPECT_FALSE(toJson(full(), false).contains("plans"));
    const json j = toJson(full(), true);
    ASSERT_TRUE(j.at("plans").is_array());
    ASSERT_EQ(j.at("plans").size(), 1u);
    EXPECT_EQ(j.at("plans")[0], toJson(full().plans[0]));

    Product none = full();
    none.plans.clear();
    EXPECT_EQ(toJson(none, true).at("plans"), json::array());
}

TEST(ProductJson, PlansKeepTheirOrder) {
    Product p = full();
    PricingPlan second = p.plans[0];
    second.id = "plan-2";
    second.sortOrder = 1;
    p.plans.push_back(second);
    const json j = toJson(p, true);
    EXPECT_EQ(j["plans"][0]["id"], "plan-1");
    EXPECT_EQ(j["plans"][1]["id"], "plan-2");
}

TEST(PricingPlanJson, ContractShape) {
    PricingPlan plan;
    plan.id = "p1";
    plan.productId = "product";
    plan.name = "Annual";
    plan.priceAmount = 15000;
    plan.currency = "AUD";
    plan.billingFrequencyValue = 12;
    plan.billingFrequencyUnit = "month";
    plan.sortOrder = 3;
    EXPECT_EQ(toJson(plan), json::parse(R"({"id": "p1", "name": "Annual", "price_amount": 15000, "currency": "AUD",
        "billing_frequency_value": 12, "billing_frequency_unit": "month", "sort_order": 3, "trial_days": 0})"));
}

TEST(ProductJson, TextIsCarriedVerbatim) {
    Product p = full();
    p.name = "</script> \"T\u0101maki\"";
    EXPECT_EQ(toJson(p, false).at("name"), "</script> \"T\u0101maki\"");
}

} // namespace

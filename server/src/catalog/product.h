#pragma once
// The catalogue's value types. Money is integer minor units (cents); times are ISO-8601 UTC strings.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::catalog {

struct PricingPlan {
    std::string id;
    std::string productId;
    std::string name;
    std::int64_t priceAmount = 0;  // minor units
    std::string currency = "NZD";  // NZD | AUD | USD
    int billingFrequencyValue = 1; // 1 | 3 | 6 | 12
    std::string billingFrequencyUnit = "month"; // month | year
    int sortOrder = 0;
    int trialDays = 0;             // 0 to 90: a free trial for a customer's first subscription to the product
};

struct Product {
    std::string id;
    std::string slug;
    std::string name;
    std::string description;                      // sanitised rich text (home page)
    std::optional<std::string> descriptionDetail; // sanitised rich text (detail page)
    std::optional<std::string> metaKeywords;      // comma-separated
    std::string type = "subscription";            // subscription | physical
    std::string iconUrl;
    std::optional<std::string> pictureUrl;
    std::optional<std::string> pictureSrcset; // read only: an uploaded picture's stored widths (HTML srcset)
    std::optional<std::int64_t> stockQuantity;
    bool trackInventory = false;
    bool isActive = true;
    std::vector<std::string> features;
    std::optional<std::string> actionType; // null | none | checkout | google_play | external_link | other (= checkout)
    std::optional<std::string> actionUrl;
    bool showPricing = true;
    std::int64_t priceNzd = 0; // minor units, GST included
    std::optional<std::string> billingInterval;
    std::string createdAt; // ISO-8601 UTC, e.g. 2026-11-23T09:26:51.000Z
    std::vector<PricingPlan> plans; // ordered by sort_order; loaded for detail views
};

// A physical product that tracks inventory with stock 0 or less (spec section 4, Availability).
inline bool isSoldOut(const Product& p) {
    return p.type == "physical" && p.trackInventory && p.stockQuantity.has_value() && *p.stockQuantity <= 0;
}

} // namespace storefront::catalog

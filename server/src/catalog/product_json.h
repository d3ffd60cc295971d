#pragma once
// The Product and PricingPlan JSON of the API contract (docs/architecture.md): snake_case keys,
// null for empty optionals, integer minor units. Used by the /api/v1 routes and the SPA shell's
// initial data, so both always agree.
#include <nlohmann/json.hpp>

#include "catalog/product.h"

namespace storefront::catalog {

// All product fields; "plans" (ordered as given) only when withPlans is true.
nlohmann::json toJson(const Product& product, bool withPlans);

// {"id", "name", "price_amount", "currency", "billing_frequency_value", "billing_frequency_unit",
// "sort_order"} as in the contract (product_id is not part of it).
nlohmann::json toJson(const PricingPlan& plan);

// The staff API's and the audit log's view: the same, with each plan's "product_id".
nlohmann::json staffJson(const Product& product);
nlohmann::json staffJson(const PricingPlan& plan);

} // namespace storefront::catalog

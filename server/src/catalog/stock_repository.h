#pragma once
// The stock of tracked products, changed only inside the caller's write transaction. The guard is
// in the statement itself, so stock never goes below zero under any concurrency (the CHECK on
// products.stock_quantity catches anything that slips past). A change notifies db::topic::kCatalog
// so cached catalogue responses are dropped once it commits.
#include "db/database.h"

#include <cstdint>
#include <string>

namespace storefront::catalog {

// Takes `quantity` if that many are left; false (and nothing changed) when not.
bool takeStock(db::Tx& tx, const std::string& productId, std::int64_t quantity);

// Gives `quantity` back to a product that tracks stock (untracked products are left alone).
void giveStock(db::Tx& tx, const std::string& productId, std::int64_t quantity);

// What is left of a product's stock (0 when untracked or unknown).
std::int64_t stockLeft(db::Tx& tx, const std::string& productId);

} // namespace storefront::catalog

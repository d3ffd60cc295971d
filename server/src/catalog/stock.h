#pragma once
// The stock of tracked products, changed only inside the caller's write transaction. The guard is
// in the statement itself, so stock never goes below zero under any concurrency (the CHECK on
// products.stock_quantity catches anything that slips past).
#include "db/database.h"

#include <cstdint>
#include <string>

namespace storefront::catalog {

// Takes `quantity` if that many are left; false (and nothing changed) when not.
bool takeStock(db::Database& db, Poco::Data::Session& s, const std::string& productId, std::int64_t quantity);

// Gives `quantity` back to a product that tracks stock (untracked products are left alone).
void giveStock(db::Database& db, Poco::Data::Session& s, const std::string& productId, std::int64_t quantity);

} // namespace storefront::catalog

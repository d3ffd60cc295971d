#include "catalog/stock_repository.h"

namespace storefront::catalog {

namespace {

constexpr const char* kTake = "UPDATE products SET stock_quantity = stock_quantity - ?, updated_at = ? "
                              "WHERE id = ? AND stock_quantity >= ? RETURNING stock_quantity";
constexpr const char* kGive = "UPDATE products SET stock_quantity = stock_quantity + ?, updated_at = ? "
                              "WHERE id = ? AND stock_quantity IS NOT NULL";
constexpr const char* kLeft = "SELECT COALESCE(stock_quantity, 0) FROM products WHERE id = ?";

} // namespace

bool takeStock(db::Tx& tx, const std::string& productId, std::int64_t quantity) {
    const bool taken = tx.query(kTake).bind(quantity, tx.clock().nowTimestamp(), productId, quantity).changed() > 0;
    if (taken) tx.notify(db::topic::kCatalog);
    return taken;
}

void giveStock(db::Tx& tx, const std::string& productId, std::int64_t quantity) {
    if (tx.query(kGive).bind(quantity, tx.clock().nowTimestamp(), productId).changed() > 0) tx.notify(db::topic::kCatalog);
}

std::int64_t stockLeft(db::Tx& tx, const std::string& productId) { return tx.query(kLeft).bind(productId).count(); }

} // namespace storefront::catalog

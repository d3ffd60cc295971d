#include "catalog/stock.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>

using namespace Poco::Data::Keywords;

namespace storefront::catalog {

bool takeStock(db::Database& db, Poco::Data::Session& s, const std::string& productId, std::int64_t quantity) {
    Poco::Data::Statement st(s);
    std::string id = productId, at = db::nowTimestamp();
    Poco::Int64 q = quantity, q2 = quantity;
    st << db.sql("UPDATE products SET stock_quantity = stock_quantity - ?, updated_at = ? "
                 "WHERE id = ? AND stock_quantity >= ? RETURNING stock_quantity"),
        use(q), use(at), use(id), use(q2);
    st.execute();
    return Poco::Data::RecordSet(st).rowCount() > 0;
}

void giveStock(db::Database& db, Poco::Data::Session& s, const std::string& productId, std::int64_t quantity) {
    std::string id = productId, at = db::nowTimestamp();
    Poco::Int64 q = quantity;
    s << db.sql("UPDATE products SET stock_quantity = stock_quantity + ?, updated_at = ? "
                "WHERE id = ? AND stock_quantity IS NOT NULL"),
        use(q), use(at), use(id), now;
}

} // namespace storefront::catalog

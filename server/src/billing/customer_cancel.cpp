// The customer's own cancel of their unpaid order (POST /api/v1/account/orders/{id}/cancel):
// the customer's row of the lifecycle table, stock back once, the checkout closed.
#include "billing/order_admin.h"

#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

void OrderAdmin::cancelForCustomer(const audit::Actor& actor, const std::string& userId, const std::string& id) {
    std::vector<std::pair<std::string, std::optional<std::string>>> toExpire;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state || state->userId != userId) throw ApiError::notFound("order_not_found", "No such order.");
        if (state->status == "cancelled") return; // cancelled already (by them, staff or the expiry): nothing more
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        if (state->status != "pending" || checkouts_.completedForOrder(tx, id))
            throw ApiError(ErrorKind::Conflict, "order_not_cancellable",
                           "This order has been paid and can no longer be cancelled here: contact us for a refund.");
        auto before = *detail(tx, id);
        releaseStock(tx, id);
        toExpire = checkouts_.expireOpen(tx, id);
        moveOrder(tx, orders_, id, OrderPath::Customer, state->status, "cancelled", source::kCustomer, false, {});
        orders_.addHistory(tx, {id, state->status, "cancelled", source::kCustomer, actor.userId, actor.email,
                                std::string(kCancelledByCustomerNote)});
        audit::record(tx, actor, {"order.cancelled_by_customer", "order", id, toJson(before), toJson(*detail(tx, id))});
        tx.notify(db::topic::kCatalog); // stock may have changed
    });
    expireAtProvider(toExpire, id);
}

} // namespace storefront::billing

// Staff set or correct where an order's goods go, until it ships (PUT
// /api/v1/admin/orders/{id}/shipping-address; docs/billing.md, "Staff's address").
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

AdminOrderDetail OrderAdmin::setShippingAddress(const audit::Actor& actor, const std::string& id, const ShippingAddress& address) {
    AdminOrderDetail after;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state) throw ApiError::notFound("order_not_found", "No such order.");
        claims_.refuseWhileClaimed(tx, record_type::kOrder, id);
        if (!orders_.facts(tx, id).physical)
            throw ApiError(ErrorKind::Conflict, "nothing_to_ship", "Digital order: nothing to ship, so no shipping address.");
        if (state->status != "pending" && state->status != "paid")
            throw ApiError(ErrorKind::Conflict, "address_locked",
                           state->status == "shipped" || state->status == "completed"
                               ? "This order has shipped: its shipping address can no longer change."
                               : "This order is " + state->status + ": its shipping address can no longer change.");
        auto before = *detail(tx, id);
        const auto& old = before.order.fulfilment.address;
        if (old && sameAddress(*old, address)) {
            after = std::move(before);
            return;
        }
        orders_.replaceShippingAddress(tx, id, address);
        orders_.addHistory(tx, {id, std::nullopt, state->status, source::kStaff, actor.userId, actor.email,
                                std::string(old ? "Shipping address corrected: " : "Shipping address added: ") + addressLine(address)});
        after = *detail(tx, id);
        audit::record(tx, actor, {"order.shipping_address_changed", "order", id, toJson(before), toJson(after)});
    });
    return after;
}

} // namespace storefront::billing

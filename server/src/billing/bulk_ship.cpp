// Bulk "Mark as shipped" (POST /api/v1/admin/orders/bulk-ship; docs/backoffice.md, "Bulk
// shipping"): each order its own transaction through the same status change, with one result per id.
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

namespace {

// Why bulk shipping leaves an order as it is (nothing when it may ship).
void refuseBulkShipUnlessPaid(const AdminOrderDetail& detail) {
    const auto& status = detail.order.status;
    if (status == "paid" && !detail.order.hasPhysical)
        throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Digital order: nothing to ship.");
    if (status == "paid") return;
    if (status == "pending") throw ApiError(ErrorKind::Conflict, "order_not_paid", "Not paid: cannot ship.");
    if (status == "shipped") throw ApiError(ErrorKind::Conflict, "order_already_shipped", "Already shipped.");
    if (status == "completed") throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Completed: nothing to ship.");
    if (status == "refunded") throw ApiError(ErrorKind::Conflict, "order_not_shippable", "Refunded: cannot ship.");
    if (status == "cancelled")
        throw ApiError(ErrorKind::Conflict, "order_not_shippable",
                       detail.order.paidAfterCancellation ? "Cancelled (paid after cancellation): reinstate it first."
                                                          : "Cancelled: cannot ship.");
    throw ApiError(ErrorKind::Conflict, "order_not_shippable", "This order cannot ship.");
}

} // namespace

nlohmann::json toJson(const OrderAdmin::BulkShipResult& r) {
    nlohmann::json json = {{"id", r.id}, {"order_number", r.orderNumber ? nlohmann::json(*r.orderNumber) : nlohmann::json(nullptr)}, {"ok", r.ok}};
    if (!r.ok) {
        json["code"] = r.code;
        json["message"] = r.message;
    }
    return json;
}

std::vector<OrderAdmin::BulkShipResult> OrderAdmin::bulkShip(const audit::Actor& actor, const std::vector<std::string>& ids,
                                                             const std::optional<std::string>& carrier) {
    std::vector<BulkShipResult> results;
    std::vector<std::string> seen;
    for (const auto& id : ids) {
        if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
        seen.push_back(id);
        BulkShipResult result;
        result.id = id;
        try {
            auto after = transition(actor, id, "shipped", std::nullopt, {carrier, std::nullopt}, std::nullopt, refuseBulkShipUnlessPaid);
            result.orderNumber = after.order.orderNumber;
            result.ok = true;
        } catch (const ApiError& e) {
            result.code = e.code();
            result.message = e.what();
            if (auto order = this->order(id)) result.orderNumber = order->order.orderNumber;
        } catch (const std::exception& e) {
            // Only this order's transaction rolled back: the others keep their answers.
            Poco::Logger::get("billing").error("bulk ship of order %s: %s", id, std::string(e.what()));
            result.code = "internal_error";
            result.message = "Something went wrong: this order was not changed. Try again.";
        }
        results.push_back(std::move(result));
    }
    return results;
}

} // namespace storefront::billing

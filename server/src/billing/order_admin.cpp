#include "billing/order_admin.h"

#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

namespace {

template <typename T>
nlohmann::json orNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

bool isOrderStatus(const std::string& s) {
    return s == "pending" || s == "paid" || s == "shipped" || s == "completed" || s == "cancelled";
}

db::Page<AdminOrder> OrderAdmin::orders(const AdminOrderFilter& filter, const db::PageQuery& page) {
    auto s = db_.session();
    return orders_.adminList(s, filter, page);
}

std::optional<AdminOrderDetail> OrderAdmin::order(const std::string& id) {
    auto s = db_.session();
    return orders_.adminFind(s, id);
}

db::Page<AdminSubscription> OrderAdmin::subscriptions(const std::optional<std::string>& status,
                                                      const std::optional<std::string>& search, const db::PageQuery& page) {
    auto s = db_.session();
    return subscriptions_.adminList(s, status, search, page);
}

AdminOrderDetail OrderAdmin::changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                          const std::optional<std::string>& note) {
    AdminOrderDetail after;
    std::vector<std::pair<std::string, std::optional<std::string>>> toExpire;
    db_.write([&](db::Tx& tx) {
        auto state = orders_.lock(tx, id);
        if (!state) throw ApiError::notFound("order_not_found", "No such order.");
        auto before = *orders_.adminFind(tx, id);
        if (state->status == status) {
            after = std::move(before);
            return;
        }
        if (status == "cancelled") {
            for (const auto& r : checkouts_.releaseReservation(tx, id)) catalog::giveStock(tx, r.productId, r.quantity);
        } else if (state->status == "cancelled") {
            // Reinstated: the stock the cancellation gave back is taken again, or the change is refused.
            for (const auto& r : checkouts_.reclaimReservation(tx, id))
                if (!catalog::takeStock(tx, r.productId, r.quantity))
                    throw ApiError(ErrorKind::Conflict, "insufficient_stock",
                                   "There is not enough stock left to reinstate this order.");
        }
        if (status != "pending") {
            // Decided by staff: the buyer can no longer pay through the open checkout.
            toExpire = checkouts_.expireOpen(tx, id);
            if (status != "cancelled") checkouts_.settleReservation(tx, id);
        }
        // The flag says "money arrived for an order staff cancelled": it stays while the order stays cancelled.
        orders_.setStatus(tx, id, status, source::kStaff, status == "cancelled" && state->paidAfterCancellation);
        orders_.addHistory(tx, {id, state->status, status, source::kStaff, actor.userId, actor.email, note});
        after = *orders_.adminFind(tx, id);
        audit::record(tx, actor, {"order.status_changed", "order", id, toJson(before), toJson(after)});
        tx.notify(db::topic::kCatalog); // stock may have changed
    });
    for (const auto& [provider, sessionId] : toExpire) {
        if (!sessionId || provider != provider_.name()) continue;
        try {
            provider_.expireCheckoutSession(*sessionId);
        } catch (const std::exception& e) {
            // The order stays as staff set it; a payment that still arrives is recorded as a late payment.
            Poco::Logger::get("billing").warning("could not expire %s checkout %s of order %s: %s", provider, *sessionId, id,
                                                 std::string(e.what()));
        }
    }
    return after;
}

nlohmann::json toJson(const AdminOrder& o) {
    return {{"id", o.id},
            {"order_number", o.orderNumber},
            {"user_id", orNull(o.userId)},
            {"customer_email", orNull(o.customerEmail)},
            {"status", o.status},
            {"total_amount", o.totalAmount},
            {"currency", o.currency},
            {"created_at", o.createdAt},
            {"updated_at", o.updatedAt},
            {"paid_after_cancellation", o.paidAfterCancellation}};
}

nlohmann::json toJson(const AdminOrderDetail& d) {
    auto j = toJson(d.order);
    nlohmann::json items = nlohmann::json::array();
    for (const auto& i : d.items)
        items.push_back({{"product_id", orNull(i.productId)},
                         {"product_name", i.productName},
                         {"quantity", i.quantity},
                         {"unit_amount", i.unitAmount}});
    nlohmann::json history = nlohmann::json::array();
    for (const auto& h : d.history)
        history.push_back({{"at", h.at},
                           {"from_status", orNull(h.from)},
                           {"to_status", h.to},
                           {"source", h.source},
                           {"actor_email", orNull(h.actorEmail)},
                           {"note", orNull(h.note)}});
    nlohmann::json late = nlohmann::json::array();
    for (const auto& p : d.latePayments)
        late.push_back({{"at", p.at},
                        {"amount", p.amount},
                        {"currency", p.currency},
                        {"provider", p.provider},
                        {"provider_reference", orNull(p.providerReference)}});
    j["items"] = std::move(items);
    j["history"] = std::move(history);
    j["late_payments"] = std::move(late);
    return j;
}

nlohmann::json toJson(const AdminSubscription& s) {
    return {{"id", s.id},
            {"user_id", s.userId},
            {"user_email", orNull(s.userEmail)},
            {"product_id", s.productId},
            {"product_name", s.productName},
            {"pricing_plan_id", orNull(s.planId)},
            {"plan_name", orNull(s.planName)},
            {"status", s.status},
            {"payment_provider", s.paymentProvider},
            {"current_period_end", orNull(s.periodEnd)},
            {"cancel_at_period_end", s.cancelAtPeriodEnd},
            {"created_at", s.createdAt}};
}

} // namespace storefront::billing

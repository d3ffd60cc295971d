// The staff's order and subscription JSON (GET /api/v1/admin/orders, /orders/{id}, every write's
// answer; GET /api/v1/admin/subscriptions).
#include "billing/order_admin.h"
#include "billing/subscription_routes.h"

#include "billing/orders/lifecycle.h"

#include <nlohmann/json.hpp>

namespace storefront::billing {

namespace {

template <typename T>
nlohmann::json jsonOrNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json toJson(const Refund& r) {
    return {{"id", r.id},
            {"amount", r.amount},
            {"currency", r.currency},
            {"reason", jsonOrNull(r.reason)},
            {"restock", r.restock},
            {"status", r.status},
            {"source", r.source},
            {"provider_refund_id", jsonOrNull(r.providerRefundId)},
            {"actor_email", jsonOrNull(r.actorEmail)},
            {"late_payment_id", jsonOrNull(r.latePaymentId)},
            {"created_at", r.createdAt}};
}

nlohmann::json toJson(const AdminOrder& o) {
    return {{"id", o.id},
            {"order_number", o.orderNumber},
            {"user_id", jsonOrNull(o.userId)},
            {"customer_email", jsonOrNull(o.customerEmail)},
            {"status", o.status},
            {"total_amount", o.totalAmount},
            {"currency", o.currency},
            {"created_at", o.createdAt},
            {"updated_at", o.updatedAt},
            {"paid_after_cancellation", o.paidAfterCancellation},
            {"refunded_amount", o.refundedAmount},
            {"disputed", o.disputed},
            {"amount_mismatch", o.amountMismatch},
            {"payment_to_return", o.paymentToReturn},
            {"has_physical_items", o.hasPhysical},
            // What staff may do from here (the lifecycle table): the web offers only these.
            {"allowed_statuses", allowedMoves(OrderPath::Staff, o.status, {o.hasPhysical, o.paidAfterCancellation})},
            {"cancellable", o.cancellable}};
}

nlohmann::json toJson(const AdminOrderDetail& d) {
    auto j = toJson(d.order);
    j["refundable_amount"] = d.refundableAmount;
    nlohmann::json items = nlohmann::json::array();
    for (const auto& i : d.items)
        items.push_back({{"id", i.id},
                         {"product_id", jsonOrNull(i.productId)},
                         {"product_name", i.productName},
                         {"quantity", i.quantity},
                         {"unit_amount", i.unitAmount},
                         {"refunded_quantity", i.refundedQuantity},
                         {"restocked_quantity", i.restockedQuantity}});
    nlohmann::json history = nlohmann::json::array();
    for (const auto& h : d.history)
        history.push_back({{"at", h.at},
                           {"from_status", jsonOrNull(h.from)},
                           {"to_status", h.to},
                           {"source", h.source},
                           {"actor_email", jsonOrNull(h.actorEmail)},
                           {"note", jsonOrNull(h.note)}});
    nlohmann::json late = nlohmann::json::array();
    for (const auto& p : d.latePayments)
        late.push_back({{"at", p.at},
                        {"amount", p.amount},
                        {"currency", p.currency},
                        {"provider", p.provider},
                        {"provider_reference", jsonOrNull(p.providerReference)},
                        {"id", p.id},
                        {"reason", p.reason},
                        {"returned_amount", p.returned}});
    addFulfilment(j, d.order.fulfilment);
    j["items"] = std::move(items);
    j["history"] = std::move(history);
    j["late_payments"] = std::move(late);
    nlohmann::json refunds = nlohmann::json::array();
    for (const auto& r : d.refunds) refunds.push_back(toJson(r));
    j["refunds"] = std::move(refunds);
    nlohmann::json invoices = nlohmann::json::array();
    for (const auto& i : d.invoices)
        invoices.push_back({{"number", i.number}, {"kind", i.kind}, {"total_amount", i.totalAmount}});
    j["invoices"] = std::move(invoices);
    return j;
}

nlohmann::json toJson(const AdminSubscription& s) {
    return {{"id", s.id},
            {"user_id", s.userId},
            {"user_email", jsonOrNull(s.userEmail)},
            {"product_id", s.productId},
            {"product_name", s.productName},
            {"pricing_plan_id", jsonOrNull(s.planId)},
            {"plan_name", jsonOrNull(s.planName)},
            {"status", s.status},
            {"payment_provider", s.paymentProvider},
            {"current_period_end", jsonOrNull(s.periodEnd)},
            {"cancel_at_period_end", s.cancelAtPeriodEnd},
            {"past_due_since", jsonOrNull(s.pastDueSince)},
            {"ended_at", jsonOrNull(s.endedAt)},
            {"allowed_actions", s.allowedActions},
            {"created_at", s.createdAt}};
}


} // namespace storefront::billing

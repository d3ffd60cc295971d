#include "billing/account_queries.h"

#include "billing/orders/rules.h"
#include "billing/subscriptions/lifecycle.h"

#include <Poco/Timestamp.h>

namespace storefront::billing {

namespace {

// The active-subscription result's subscription_source for a product granted by an enterprise seat.
constexpr const char* kEnterpriseSource = "enterprise_licence";

nlohmann::json accountOrNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

// When access ends: a past-due one's grace, a trial's end, or the period end of one that will not renew.
std::optional<std::int64_t> accessEndsOf(const SubscriptionView& v, int graceDays) {
    if (v.status == "past_due" && v.pastDueSince) return graceEnd(db::epochFromTimestamp(*v.pastDueSince), graceDays);
    if (v.status == "trialing" && v.trialEnd) return db::epochFromTimestamp(*v.trialEnd);
    if (v.cancelAtPeriodEnd && v.periodEnd) return db::epochFromTimestamp(*v.periodEnd);
    return std::nullopt;
}

nlohmann::json subscriptionJson(const SubscriptionView& v, std::int64_t nowEpoch, int graceDays) {
    const auto accessEnds = accessEndsOf(v, graceDays);
    const auto facts = factsOf(v.status, v.cancelAtPeriodEnd, v.periodEnd, nowEpoch);
    nlohmann::json plan = nullptr;
    if (v.plan)
        plan = {{"id", v.plan->id},
                {"name", v.plan->name},
                {"price_amount", v.plan->priceAmount},
                {"currency", v.plan->currency},
                {"billing_frequency_value", v.plan->frequencyValue},
                {"billing_frequency_unit", v.plan->frequencyUnit}};
    return {{"id", v.id},
            {"status", v.status},
            {"payment_provider", v.paymentProvider},
            {"current_period_end", accountOrNull(v.periodEnd)},
            {"cancel_at_period_end", v.cancelAtPeriodEnd},
            {"created_at", v.createdAt},
            {"pricing_plan_id", accountOrNull(v.planId)},
            {"past_due_since", accountOrNull(v.pastDueSince)},
            {"trial_end", accountOrNull(v.trialEnd)},
            {"ended_at", accountOrNull(v.endedAt)},
            {"credit_balance", v.creditBalance},
            {"access_ends_at", accessEnds ? nlohmann::json(db::timestampFromEpoch(*accessEnds)) : nlohmann::json(nullptr)},
            {"allowed_actions", allowedActionNames(facts)},
            {"product",
             {{"id", v.productId},
              {"slug", v.productSlug},
              {"name", v.productName},
              {"price_nzd", v.productPriceNzd},
              {"billing_interval", accountOrNull(v.productBillingInterval)}}},
            {"plan", plan}};
}

// The order's checkout as its customer sees it (docs/billing.md, "Unpaid orders"):
// checkout_state open (payable now: checkout_url goes back to the same checkout), expired (the
// payment window closed unpaid), abandoned (given up or cancelled before the window closed), or
// null (paid, or no checkout: a payment link's order).
void addCheckout(nlohmann::json& j, const OrderSummary& o, std::int64_t nowEpoch) {
    nlohmann::json state = nullptr, url = nullptr, expiresAt = nullptr;
    if (o.checkout && o.checkout->status != "completed") {
        const auto& c = *o.checkout;
        expiresAt = c.expiresAt;
        const auto expiresEpoch = db::epochFromTimestamp(c.expiresAt);
        const bool stillOpen = c.status == "open" || c.status == "creating";
        if (stillOpen && o.status == "pending" && expiresEpoch > nowEpoch) {
            state = "open";
            if (c.url) url = *c.url;
        } else if (stillOpen || db::epochFromTimestamp(c.updatedAt) >= expiresEpoch) {
            state = "expired";
        } else {
            state = "abandoned";
        }
    }
    j["checkout_state"] = state;
    j["checkout_open"] = state == "open";
    j["checkout_url"] = url;
    j["checkout_expires_at"] = expiresAt;
}

nlohmann::json orderJson(const OrderSummary& o, std::int64_t nowEpoch) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& line : o.lines)
        items.push_back({{"product_name", line.productName}, {"quantity", line.quantity}, {"unit_amount", line.unitAmount}});
    nlohmann::json j = {{"id", o.id},
                        {"order_number", o.orderNumber},
                        {"status", o.status},
                        {"total_amount", o.totalAmount},
                        {"refunded_amount", o.refundedAmount},
                        {"currency", o.currency},
                        {"created_at", o.createdAt},
                        {"invoice_number", o.invoiceNumber ? nlohmann::json(*o.invoiceNumber) : nlohmann::json()},
                        {"items", std::move(items)}};
    addFulfilment(j, o.fulfilment); // shipping_address, carrier, tracking_number, shipped_at
    addCheckout(j, o, nowEpoch);     // checkout_state, checkout_open, checkout_url, checkout_expires_at
    return j;
}

} // namespace

nlohmann::json AccountQueries::dashboard(const std::string& userId) {
    auto s = db_.session();
    const std::int64_t nowEpoch = db_.clock().epochSeconds();
    nlohmann::json subscriptions = nlohmann::json::array(), active = nlohmann::json::array(), orders = nlohmann::json::array();
    for (const auto& v : subscriptions_.forUser(s, userId)) {
        subscriptions.push_back(subscriptionJson(v, nowEpoch, graceDays_));
        // get_user_active_subscriptions: live and not past the period end, or past due within its grace.
        const auto accessEnds = accessEndsOf(v, graceDays_);
        const bool graced = v.status == "past_due" && accessEnds && *accessEnds > nowEpoch;
        if (graced || (isLive(v.status) && (!v.periodEnd || db::epochFromTimestamp(*v.periodEnd) > nowEpoch)))
            active.push_back({{"product_name", v.productName},
                              {"product_slug", v.productSlug},
                              {"status", v.status == "active" ? "active" : graced ? "past_due" : "trial"},
                              {"subscription_source", subscriptionSource(v.paymentProvider)},
                              {"expires_at", accountOrNull(v.periodEnd)}});
    }
    for (const auto& licensed : licences_.licensedProducts(s, userId))
        active.push_back({{"product_name", licensed.name},
                          {"product_slug", licensed.slug},
                          {"status", "active"},
                          {"subscription_source", kEnterpriseSource},
                          {"expires_at", nullptr}});
    // The newest orders only, and the count: the whole history is paged (orders() below). A
    // response that grew with every order a customer ever placed was the soak's memory growth
    // (docs/reliability.md, "Overload and soak").
    for (const auto& o : orders_.forUser(s, userId, kDashboardOrders, 0)) orders.push_back(orderJson(o, nowEpoch));
    const auto ordersTotal = orders.size() < static_cast<std::size_t>(kDashboardOrders)
                                 ? static_cast<std::int64_t>(orders.size())
                                 : orders_.countForUser(s, userId);
    return {{"subscriptions", subscriptions},
            {"active_subscriptions", active},
            {"orders", orders},
            {"orders_total", ordersTotal},
            {"account_type", licences_.inActiveAccount(s, userId) ? "Enterprise" : "Individual"}};
}

db::Page<nlohmann::json> AccountQueries::orders(const std::string& userId, const db::PageQuery& page) {
    auto s = db_.session();
    db::Page<nlohmann::json> result;
    const std::int64_t nowEpoch = db_.clock().epochSeconds();
    for (const auto& o : orders_.forUser(s, userId, page.limit, page.offset)) result.items.push_back(orderJson(o, nowEpoch));
    result.total = orders_.countForUser(s, userId);
    return result;
}

std::optional<nlohmann::json> AccountQueries::order(const std::string& userId, const std::string& orderId) {
    auto s = db_.session();
    auto o = orders_.findForUser(s, userId, orderId);
    if (!o) return std::nullopt;
    return orderJson(*o, db_.clock().epochSeconds());
}

std::optional<nlohmann::json> AccountQueries::checkout(const std::string& userId, const std::string& checkoutId) {
    auto c = checkouts_.progress(userId, checkoutId);
    if (!c) return std::nullopt;
    return nlohmann::json{{"id", c->id},
                          {"status", c->status == "creating" ? "open" : c->status},
                          {"mode", c->mode},
                          {"product_slug", accountOrNull(c->productSlug)},
                          {"order",
                           {{"order_number", c->orderNumber},
                            {"status", c->orderStatus},
                            {"total_amount", c->totalAmount},
                            {"currency", c->currency}}}};
}

std::optional<nlohmann::json> AccountQueries::subscription(const std::string& userId, const std::string& subscriptionId) {
    auto s = db_.session();
    const std::int64_t nowEpoch = db_.clock().epochSeconds();
    for (const auto& v : subscriptions_.forUser(s, userId))
        if (v.id == subscriptionId) return subscriptionJson(v, nowEpoch, graceDays_);
    return std::nullopt;
}

std::optional<nlohmann::json> AccountQueries::validate(const std::string& userId, const std::string& productSlug) {
    auto productId = products_.activeIdBySlug(productSlug);
    if (!productId) return std::nullopt;
    std::optional<SubscriptionState> state;
    {
        auto s = db_.session();
        if (auto row = subscriptions_.forValidation(s, userId, *productId)) {
            auto epoch = [](const std::optional<std::string>& t) -> std::optional<std::int64_t> {
                if (!t) return std::nullopt;
                return db::epochFromTimestamp(*t);
            };
            state = SubscriptionState{row->status, epoch(row->periodEnd), epoch(row->trialEnd), epoch(row->pastDueSince)};
        }
    }
    const auto now = db_.clock().epochSeconds();
    auto result = billing::validate(state, now, graceDays_);
    if (!result.valid) {
        // No live subscription of their own: an enterprise seat grants the product, with no end.
        auto s = db_.session();
        if (licences_.holdsSeat(s, userId, *productId)) result = enterpriseLicence();
    }
    return nlohmann::json{{"valid", result.valid},
                          {"status", result.status},
                          {"expiresAt", result.expiresAt ? nlohmann::json(db::timestampFromEpoch(*result.expiresAt))
                                                         : nlohmann::json(nullptr)},
                          {"daysRemaining", result.daysRemaining},
                          {"message", result.message}};
}

} // namespace storefront::billing

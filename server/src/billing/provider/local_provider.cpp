#include "billing/provider/local_provider.h"

#include "billing/orders/rules.h"
#include <Poco/String.h>
#include <Poco/Timestamp.h>

#include <algorithm>

namespace storefront::billing {

namespace {

constexpr int kPortalSeconds = 3600;

// The provider ids of a local checkout's objects derive from its session id, so paying twice (a
// double click, two tabs) produces the same events, which the inbox then takes once.
std::string suffixOf(const std::string& sessionId) { return sessionId.substr(std::string("cs_local_").size()); }

} // namespace

std::string LocalProvider::createCustomer(const std::string&, const std::string&) { return "cus_local_" + randomHex(12); }

CreatedSession LocalProvider::createCheckoutSession(const CheckoutRequest&) {
    // The page reads everything else from our checkout row once it is linked to this id.
    const std::string id = "cs_local_" + randomHex(16);
    return {id, publicUrl_ + "/pay/test/" + id};
}

std::optional<LocalProvider::Session> LocalProvider::session(const std::string& sessionId) {
    auto view = store_.checkout(sessionId);
    if (!view) return std::nullopt;
    Session out;
    out.id = sessionId;
    out.checkoutId = view->checkoutId;
    out.status = view->status;
    out.mode = view->mode;
    out.itemName = view->itemName;
    out.quantity = view->quantity;
    out.unitAmount = view->unitAmount;
    out.amountTotal = view->amountTotal;
    out.currency = view->currency;
    out.interval = view->interval.value_or("month");
    out.intervalCount = static_cast<int>(view->intervalCount.value_or(1));
    out.successUrl = view->successUrl;
    out.cancelUrl = view->cancelUrl;
    out.collectsShipping = view->collectsShipping;
    return out;
}

void LocalProvider::emit(const std::string& eventId, const std::string& type, nlohmann::json object) {
    nlohmann::json event = {{"id", eventId},   {"object", "event"},         {"type", type},
                            {"created", clock_.epochSeconds()}, {"livemode", false}, {"data", {{"object", std::move(object)}}}};
    events_.deliver(name(), event.dump());
}

bool LocalProvider::pay(const std::string& sessionId, const std::optional<ShippingAddress>& address) {
    auto view = session(sessionId);
    if (!view || view->status != "open") return false;
    if (view->collectsShipping && !address) return false; // the page checks this first

    auto payer = store_.payer(view->checkoutId);
    if (!payer) return false;
    const std::string userId = payer->userId.value_or(""), productId = payer->productId.value_or("");
    const std::string customer = payer->customerId.value_or(""), email = payer->email.value_or("");
    const auto& planId = payer->planId;
    nlohmann::json metadata = {{"checkout_id", view->checkoutId}, {"user_id", userId}, {"product_id", productId}};
    if (planId) metadata["pricing_plan_id"] = *planId;

    const std::string suffix = suffixOf(sessionId);
    const std::int64_t start = clock_.epochSeconds();
    nlohmann::json completed = {{"id", sessionId},
                                {"object", "checkout.session"},
                                {"client_reference_id", view->checkoutId},
                                {"mode", view->mode},
                                {"status", "complete"},
                                {"payment_status", "paid"},
                                {"amount_total", view->amountTotal},
                                {"currency", Poco::toLower(view->currency)},
                                {"customer", customer},
                                {"customer_details", {{"email", email}}},
                                {"metadata", metadata}};
    // Stripe's shape in the pinned API version: collected_information.shipping_details, customer_details.phone.
    if (view->collectsShipping && address) addToSession(completed, *address);
    if (view->mode == "subscription") {
        const std::string subscription = "sub_local_" + suffix;
        const std::int64_t end = addInterval(start, view->interval, view->intervalCount);
        nlohmann::json item = {{"id", "si_local_" + suffix},
                               {"current_period_start", start},
                               {"current_period_end", end},
                               {"price",
                                {{"unit_amount", view->unitAmount},
                                 {"currency", Poco::toLower(view->currency)},
                                 {"recurring", {{"interval", view->interval}, {"interval_count", view->intervalCount}}}}}};
        emit("evt_local_" + suffix + "_subscription", "customer.subscription.created",
             {{"id", subscription},
              {"object", "subscription"},
              {"customer", customer},
              {"status", "active"},
              {"cancel_at_period_end", false},
              {"created", start},
              {"metadata", metadata},
              {"items", {{"object", "list"}, {"data", nlohmann::json::array({item})}}}});
        emit("evt_local_" + suffix + "_invoice", "invoice.paid",
             {{"id", "in_local_" + suffix},
              {"object", "invoice"},
              {"customer", customer},
              {"amount_paid", view->amountTotal},
              {"currency", Poco::toLower(view->currency)},
              {"billing_reason", "subscription_create"},
              {"customer_email", email},
              {"parent", {{"type", "subscription_details"}, {"subscription_details", {{"subscription", subscription}}}}},
              {"lines",
               {{"data", nlohmann::json::array({{{"description", std::to_string(view->quantity) + " x " + view->itemName},
                                                 {"quantity", view->quantity},
                                                 {"amount", view->amountTotal},
                                                 {"period", {{"start", start}, {"end", end}}}}})}}}});
        completed["subscription"] = subscription;
        completed["invoice"] = "in_local_" + suffix;
    }
    emit("evt_local_" + suffix + "_completed", "checkout.session.completed", std::move(completed));
    return true;
}

void LocalProvider::expireCheckoutSession(const std::string& sessionId) {
    auto view = session(sessionId);
    if (!view || (view->status != "open" && view->status != "creating")) return; // not open: nothing to do
    emit("evt_local_" + suffixOf(sessionId) + "_expired", "checkout.session.expired",
         {{"id", sessionId},
          {"object", "checkout.session"},
          {"client_reference_id", view->checkoutId},
          {"mode", view->mode},
          {"status", "expired"},
          {"payment_status", "unpaid"},
          {"metadata", {{"checkout_id", view->checkoutId}}}});
}

std::string LocalProvider::createPortalSession(const std::string& customerId, const std::string& returnUrl) {
    const std::string token = "bps_local_" + randomHex(24);
    if (!store_.insertPortal(token, customerId, returnUrl, clock_.timestampAfter(kPortalSeconds))) throw ProviderError("no such customer");
    return publicUrl_ + "/pay/test/portal/" + token;
}

CreatedRefund LocalProvider::createRefund(const RefundRequest& request) {
    if (request.refundId.empty() || request.amount <= 0) throw std::invalid_argument("a refund needs its id and a positive amount");
    std::string id = "re_local_";
    for (char c : request.refundId)
        if (c != '-') id += c;
    return {id, "succeeded"};
}

std::optional<LocalProvider::Portal> LocalProvider::portal(const std::string& token) {
    auto rows = store_.portal(token);
    if (rows.empty()) return std::nullopt;
    Portal out;
    out.returnUrl = rows.front().returnUrl;
    for (const auto& r : rows)
        if (r.subscriptionId)
            out.subscriptions.push_back({*r.subscriptionId, r.productName.value_or("Product"), r.status.value_or(""), r.periodEnd});
    return out;
}

void LocalProvider::cancelSubscriptionNow(const std::string& subscriptionId) {
    nlohmann::json object = {{"id", subscriptionId}, {"object", "subscription"}, {"status", "canceled"},
                             {"canceled_at", clock_.epochSeconds()}, {"ended_at", clock_.epochSeconds()}};
    emit("evt_local_" + subscriptionId + "_deleted", "customer.subscription.deleted", std::move(object));
}

bool LocalProvider::cancelSubscription(const std::string& token, const std::string& subscriptionId) {
    auto view = portal(token);
    if (!view) return false;
    auto it = std::find_if(view->subscriptions.begin(), view->subscriptions.end(),
                           [&](const PortalSubscription& s) { return s.id == subscriptionId; });
    if (it == view->subscriptions.end() || it->status == "cancelled" || it->status == "expired") return false;
    nlohmann::json object = {{"id", subscriptionId}, {"object", "subscription"}, {"status", "canceled"},
                             {"canceled_at", clock_.epochSeconds()}, {"ended_at", clock_.epochSeconds()}};
    emit("evt_local_" + subscriptionId + "_deleted", "customer.subscription.deleted", std::move(object));
    return true;
}

} // namespace storefront::billing

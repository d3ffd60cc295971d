#include "billing/provider/local_provider.h"

#include "billing/orders/rules.h"
#include "billing/provider/stripe_json.h"
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
    out.trialDays = static_cast<int>(view->trialDays);
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
    if (view->collectsShipping && address) stripe_json::addToSession(completed, *address);
    if (view->mode == "subscription") {
        const std::string subscription = "sub_local_" + suffix;
        // A trial: the first period is the trial, and its invoice is for nothing.
        const bool trial = view->trialDays > 0;
        const std::int64_t end = trial ? start + std::int64_t(view->trialDays) * 86400
                                       : addInterval(start, view->interval, view->intervalCount);
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
              {"status", trial ? "trialing" : "active"},
              {"cancel_at_period_end", false},
              {"trial_end", trial ? nlohmann::json(end) : nlohmann::json(nullptr)},
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
              {"payments", {{"data", nlohmann::json::array({{{"payment", {{"type", "payment_intent"}, {"payment_intent", "pi_local_" + suffix}}}}})}}},
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
            out.subscriptions.push_back({*r.subscriptionId, r.productName.value_or("Product"), r.status.value_or(""), r.periodEnd,
                                         r.cancelAtPeriodEnd, r.outcome == "declined"});
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

nlohmann::json LocalProvider::subscriptionObject(const LocalSubscription& sub, const std::string& status, std::int64_t start,
                                                 std::int64_t end, bool cancelAtPeriodEnd) const {
    nlohmann::json metadata = {{"user_id", sub.userId}, {"product_id", sub.productId}};
    if (sub.planId) metadata["pricing_plan_id"] = *sub.planId;
    nlohmann::json item = {{"id", "si_" + sub.providerId.substr(4)},
                           {"current_period_start", start},
                           {"current_period_end", end},
                           {"price",
                            {{"unit_amount", sub.amount},
                             {"currency", Poco::toLower(sub.currency)},
                             {"recurring", {{"interval", sub.unit}, {"interval_count", sub.count}}}}}};
    return {{"id", sub.providerId},
            {"object", "subscription"},
            {"customer", sub.customerId.value_or("")},
            {"status", status},
            {"cancel_at_period_end", cancelAtPeriodEnd},
            {"metadata", metadata},
            {"items", {{"object", "list"}, {"data", nlohmann::json::array({item})}}}};
}

nlohmann::json LocalProvider::invoiceObject(const LocalSubscription& sub, const std::string& id, const std::string& reason,
                                            std::int64_t amount, std::int64_t start, std::int64_t end,
                                            const std::string& description, std::int64_t endingCredit) const {
    return {{"id", id},
            {"object", "invoice"},
            {"customer", sub.customerId.value_or("")},
            {"amount_due", amount},
            {"amount_paid", amount},
            {"currency", Poco::toLower(sub.currency)},
            {"billing_reason", reason},
            {"customer_email", sub.email.value_or("")},
            {"ending_balance", -endingCredit},
            {"payments", {{"data", nlohmann::json::array({{{"payment", {{"type", "payment_intent"}, {"payment_intent", "pi_" + id.substr(3)}}}}})}}},
            {"parent", {{"type", "subscription_details"}, {"subscription_details", {{"subscription", sub.providerId}}}}},
            {"lines",
             {{"data", nlohmann::json::array({{{"description", description},
                                               {"quantity", 1},
                                               {"amount", amount},
                                               {"period", {{"start", start}, {"end", end}}}}})}}}};
}

void LocalProvider::setCancelAtPeriodEnd(const std::string& subscriptionId, bool cancel) {
    auto sub = store_.subscription(subscriptionId);
    if (!sub) throw ProviderError("no such local subscription: " + subscriptionId);
    const auto start = sub->periodStart ? db::epochFromTimestamp(*sub->periodStart) : clock_.epochSeconds();
    const auto end = sub->periodEnd ? db::epochFromTimestamp(*sub->periodEnd) : clock_.epochSeconds();
    emit("evt_local_" + subscriptionId + "_cape_" + randomHex(6), "customer.subscription.updated",
         subscriptionObject(*sub, stripe_json::stripeStatusOf(sub->status), start, end, cancel));
}

bool LocalProvider::changePlan(const PlanChange& change) {
    auto sub = store_.subscription(change.subscriptionId);
    if (!sub) throw ProviderError("no such local subscription: " + change.subscriptionId);
    if (sub->outcome == "declined" && change.amountDueNow > 0) return false; // the card on file declines
    std::string key;
    for (char c : change.changeId)
        if (c != '-') key += c;
    if (change.amountDueNow > 0)
        emit("evt_local_" + key + "_change_invoice", "invoice.paid",
             invoiceObject(*sub, "in_local_" + key, "subscription_update", change.amountDueNow, clock_.epochSeconds(),
                           change.periodEnd, "Change to " + change.line.name + " (prorated)", change.balanceAfter));
    LocalSubscription next = *sub;
    next.planId = change.planId;
    next.amount = change.line.unitAmount;
    next.currency = change.line.currency;
    next.unit = change.line.interval;
    next.count = change.line.intervalCount;
    emit("evt_local_" + key + "_change", "customer.subscription.updated",
         subscriptionObject(next, stripe_json::stripeStatusOf(sub->status), change.periodStart, change.periodEnd, false));
    return true;
}

bool LocalProvider::renew(const std::string& subscriptionId, const std::string& outcome) {
    auto sub = store_.subscription(subscriptionId);
    if (!sub || sub->status == "cancelled" || sub->status == "expired") return false;
    if (outcome != "succeeded" && outcome != "declined") throw std::invalid_argument("outcome is succeeded or declined");
    store_.setOutcome(subscriptionId, outcome);
    const std::int64_t now = clock_.epochSeconds();
    if (sub->cancelAtPeriodEnd) {
        cancelSubscriptionNow(subscriptionId);
        return true;
    }
    const bool pastDue = sub->status == "past_due";
    // Past due: the open invoice of the current period. Otherwise the next period begins.
    std::int64_t start = sub->periodEnd ? db::epochFromTimestamp(*sub->periodEnd) : now;
    std::int64_t end = addInterval(start, sub->unit, static_cast<int>(sub->count));
    if (pastDue) {
        end = start;
        start = sub->periodStart ? db::epochFromTimestamp(*sub->periodStart) : addInterval(end, sub->unit, -static_cast<int>(sub->count));
    }
    const std::string invoice = "in_local_" + subscriptionId.substr(10) + "_" + std::to_string(end);
    const std::int64_t due = std::max<std::int64_t>(sub->amount - sub->creditBalance, 0);
    const std::int64_t creditLeft = std::max<std::int64_t>(sub->creditBalance - sub->amount, 0);
    const std::string description = "1 x " + sub->productName + (sub->planName ? " - " + *sub->planName : "");
    if (outcome == "succeeded") {
        emit("evt_local_" + invoice.substr(9) + "_paid", "invoice.paid",
             invoiceObject(*sub, invoice, "subscription_cycle", due, start, end, description, creditLeft));
        emit("evt_local_" + invoice.substr(9) + "_active", "customer.subscription.updated",
             subscriptionObject(*sub, "active", start, end, false));
    } else {
        auto failed = invoiceObject(*sub, invoice, "subscription_cycle", due, start, end, description, sub->creditBalance);
        failed["amount_paid"] = 0;
        emit("evt_local_" + invoice.substr(9) + "_failed_" + randomHex(6), "invoice.payment_failed", std::move(failed));
        emit("evt_local_" + invoice.substr(9) + "_past_due_" + randomHex(6), "customer.subscription.updated",
             subscriptionObject(*sub, "past_due", start, end, false));
    }
    return true;
}

bool LocalProvider::setRenewalOutcome(const std::string& subscriptionId, const std::string& outcome) {
    auto sub = store_.subscription(subscriptionId);
    if (!sub || sub->status == "cancelled" || sub->status == "expired") return false;
    if (outcome != "succeeded" && outcome != "declined") throw std::invalid_argument("outcome is succeeded or declined");
    store_.setOutcome(subscriptionId, outcome);
    return true;
}

void LocalProvider::renewDue() {
    for (const auto& id : store_.dueForRenewal(clock_.nowTimestamp())) {
        auto sub = store_.subscription(id);
        if (sub) renew(id, sub->outcome);
    }
}

} // namespace storefront::billing

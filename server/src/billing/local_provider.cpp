#include "billing/local_provider.h"

#include "billing/rules.h"
#include "db/row.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/String.h>
#include <Poco/Timestamp.h>

#include <algorithm>

using namespace Poco::Data::Keywords;

namespace storefront::billing {

namespace {

constexpr int kPortalSeconds = 3600;

std::int64_t nowSeconds() { return Poco::Timestamp().epochTime(); }

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
    auto s = db_.session();
    Poco::Data::Statement st(s);
    std::string sid = sessionId;
    st << db_.sql("SELECT CAST(c.id AS TEXT) AS id, c.status, c.mode, c.quantity, c.amount_total, c.currency, c.success_url, "
                  "c.cancel_url, i.product_name, i.unit_amount, p.billing_frequency_unit, p.billing_frequency_value "
                  "FROM checkout_sessions c JOIN order_items i ON i.order_id = c.order_id "
                  "LEFT JOIN pricing_plans p ON p.id = c.pricing_plan_id "
                  "WHERE c.provider = 'local' AND c.provider_session_id = ?"),
        use(sid);
    st.execute();
    Poco::Data::RecordSet rs(st);
    if (rs.rowCount() == 0) return std::nullopt;
    db::Row r(rs, 0);
    Session out;
    out.id = sessionId;
    out.checkoutId = r.text("id");
    out.status = r.text("status");
    out.mode = r.text("mode");
    out.itemName = r.text("product_name");
    out.quantity = r.int64("quantity");
    out.unitAmount = r.int64("unit_amount");
    out.amountTotal = r.int64("amount_total");
    out.currency = r.text("currency");
    out.interval = r.optText("billing_frequency_unit").value_or("month");
    out.intervalCount = static_cast<int>(r.optInt64("billing_frequency_value").value_or(1));
    out.successUrl = r.text("success_url");
    out.cancelUrl = r.text("cancel_url");
    return out;
}

void LocalProvider::emit(const std::string& eventId, const std::string& type, nlohmann::json object) {
    nlohmann::json event = {{"id", eventId},   {"object", "event"},         {"type", type},
                            {"created", nowSeconds()}, {"livemode", false}, {"data", {{"object", std::move(object)}}}};
    events_.ingest(name(), event.dump());
}

bool LocalProvider::pay(const std::string& sessionId) {
    auto view = session(sessionId);
    if (!view || view->status != "open") return false;

    std::string userId, productId, customer, email;
    std::optional<std::string> planId;
    {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string cid = view->checkoutId;
        st << db_.sql("SELECT CAST(c.user_id AS TEXT) AS user_id, CAST(c.product_id AS TEXT) AS product_id, "
                      "CAST(c.pricing_plan_id AS TEXT) AS pricing_plan_id, o.customer_email, pc.provider_customer_id "
                      "FROM checkout_sessions c JOIN orders o ON o.id = c.order_id "
                      "LEFT JOIN payment_customers pc ON pc.user_id = c.user_id AND pc.provider = 'local' WHERE c.id = ?"),
            use(cid);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) return false;
        db::Row r(rs, 0);
        userId = r.optText("user_id").value_or("");
        productId = r.optText("product_id").value_or("");
        planId = r.optText("pricing_plan_id");
        email = r.optText("customer_email").value_or("");
        customer = r.optText("provider_customer_id").value_or("");
    }
    nlohmann::json metadata = {{"checkout_id", view->checkoutId}, {"user_id", userId}, {"product_id", productId}};
    if (planId) metadata["pricing_plan_id"] = *planId;

    const std::string suffix = suffixOf(sessionId);
    const std::int64_t start = nowSeconds();
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
              {"parent", {{"type", "subscription_details"}, {"subscription_details", {{"subscription", subscription}}}}},
              {"lines", {{"data", nlohmann::json::array({{{"period", {{"start", start}, {"end", end}}}}})}}}});
        completed["subscription"] = subscription;
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
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        Poco::Data::Statement st(s);
        std::string c = customerId, t = token, back = returnUrl, until = db::timestampAfter(kPortalSeconds),
                    at = db::nowTimestamp();
        st << db_.sql("INSERT INTO billing_portal_sessions (id, user_id, return_url, expires_at, created_at) "
                      "SELECT ?, user_id, ?, ?, ? FROM payment_customers WHERE provider = 'local' AND provider_customer_id = ? "
                      "RETURNING id"),
            use(t), use(back), use(until), use(at), use(c);
        st.execute();
        if (Poco::Data::RecordSet(st).rowCount() == 0) throw ProviderError("no such customer");
    });
    return publicUrl_ + "/pay/test/portal/" + token;
}

std::optional<LocalProvider::Portal> LocalProvider::portal(const std::string& token) {
    auto s = db_.session();
    Poco::Data::Statement st(s);
    std::string t = token, at = db::nowTimestamp();
    st << db_.sql("SELECT b.return_url, CAST(sub.id AS TEXT) AS id, sub.provider_subscription_id, sub.status, "
                  "CAST(sub.current_period_end AS TEXT) AS current_period_end, p.name "
                  "FROM billing_portal_sessions b "
                  "LEFT JOIN subscriptions sub ON sub.user_id = b.user_id AND sub.payment_provider = 'local' "
                  "LEFT JOIN products p ON p.id = sub.product_id "
                  "WHERE b.id = ? AND b.expires_at > ? ORDER BY sub.created_at DESC"),
        use(t), use(at);
    st.execute();
    Poco::Data::RecordSet rs(st);
    if (rs.rowCount() == 0) return std::nullopt;
    Portal out;
    out.returnUrl = db::Row(rs, 0).text("return_url");
    for (std::size_t i = 0; i < rs.rowCount(); ++i) {
        db::Row r(rs, i);
        auto id = r.optText("provider_subscription_id");
        if (!id) continue;
        out.subscriptions.push_back({*id, r.optText("name").value_or("Product"), r.text("status"),
                                     r.optTimestamp("current_period_end")});
    }
    return out;
}

bool LocalProvider::cancelSubscription(const std::string& token, const std::string& subscriptionId) {
    auto view = portal(token);
    if (!view) return false;
    auto it = std::find_if(view->subscriptions.begin(), view->subscriptions.end(),
                           [&](const PortalSubscription& s) { return s.id == subscriptionId; });
    if (it == view->subscriptions.end() || it->status == "cancelled" || it->status == "expired") return false;
    nlohmann::json object = {{"id", subscriptionId}, {"object", "subscription"}, {"status", "canceled"},
                             {"canceled_at", nowSeconds()}, {"ended_at", nowSeconds()}};
    emit("evt_local_" + subscriptionId + "_deleted", "customer.subscription.deleted", std::move(object));
    return true;
}

} // namespace storefront::billing

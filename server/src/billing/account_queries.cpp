#include "billing/account_queries.h"

#include "billing/rules.h"
#include "db/row.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/Timestamp.h>

#include <map>

using namespace Poco::Data::Keywords;

namespace storefront::billing {

namespace {

nlohmann::json orNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json AccountQueries::dashboard(const std::string& userId) {
    auto s = db_.session();
    const std::int64_t nowEpoch = Poco::Timestamp().epochTime();
    nlohmann::json subscriptions = nlohmann::json::array(), active = nlohmann::json::array(),
                   orders = nlohmann::json::array();
    {
        Poco::Data::Statement st(s);
        std::string u = userId;
        st << db_.sql("SELECT CAST(s.id AS TEXT) AS id, s.status, s.payment_provider, "
                      "CAST(s.current_period_end AS TEXT) AS current_period_end, s.cancel_at_period_end, "
                      "CAST(s.created_at AS TEXT) AS created_at, CAST(p.id AS TEXT) AS product_id, p.slug, p.name, "
                      "p.price_nzd, p.billing_interval, pp.name AS plan_name, pp.price_amount, pp.currency, "
                      "pp.billing_frequency_value, pp.billing_frequency_unit FROM subscriptions s "
                      "JOIN products p ON p.id = s.product_id LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id "
                      "WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id"),
            use(u);
        st.execute();
        Poco::Data::RecordSet rs(st);
        for (std::size_t i = 0; i < rs.rowCount(); ++i) {
            db::Row r(rs, i);
            const auto end = r.optTimestamp("current_period_end");
            nlohmann::json plan = nullptr;
            if (auto planName = r.optText("plan_name"))
                plan = {{"name", *planName},
                        {"price_amount", r.int64("price_amount")},
                        {"currency", r.text("currency")},
                        {"billing_frequency_value", r.int64("billing_frequency_value")},
                        {"billing_frequency_unit", r.text("billing_frequency_unit")}};
            const std::string status = r.text("status");
            subscriptions.push_back({{"id", r.text("id")},
                                     {"status", status},
                                     {"payment_provider", r.text("payment_provider")},
                                     {"current_period_end", orNull(end)},
                                     {"cancel_at_period_end", r.boolean("cancel_at_period_end")},
                                     {"created_at", r.timestamp("created_at")},
                                     {"product",
                                      {{"id", r.text("product_id")},
                                       {"slug", r.text("slug")},
                                       {"name", r.text("name")},
                                       {"price_nzd", r.int64("price_nzd")},
                                       {"billing_interval", orNull(r.optText("billing_interval"))}}},
                                     {"plan", plan}});
            // get_user_active_subscriptions: live and not past the period end.
            const bool live = status == "active" || status == "trialing";
            if (live && (!end || db::epochFromTimestamp(*end) > nowEpoch))
                active.push_back({{"product_name", r.text("name")},
                                  {"product_slug", r.text("slug")},
                                  {"status", status == "active" ? "active" : "trial"},
                                  {"subscription_source", subscriptionSource(r.text("payment_provider"))},
                                  {"expires_at", orNull(end)}});
        }
    }
    {
        Poco::Data::Statement st(s);
        std::string u = userId;
        st << db_.sql("SELECT CAST(o.id AS TEXT) AS id, o.order_number, o.status, o.total_amount, o.currency, "
                      "CAST(o.created_at AS TEXT) AS created_at, i.product_name, i.quantity, i.unit_amount "
                      "FROM orders o LEFT JOIN order_items i ON i.order_id = o.id WHERE o.user_id = ? "
                      // A checkout that was never paid (still open, abandoned, expired) is not an order yet.
                      "AND NOT EXISTS (SELECT 1 FROM checkout_sessions c WHERE c.order_id = o.id AND c.status <> 'completed') "
                      "ORDER BY o.created_at DESC, o.id, i.product_name"),
            use(u);
        st.execute();
        Poco::Data::RecordSet rs(st);
        std::string current;
        for (std::size_t i = 0; i < rs.rowCount(); ++i) {
            db::Row r(rs, i);
            const std::string id = r.text("id");
            if (id != current) {
                current = id;
                orders.push_back({{"id", id},
                                  {"order_number", r.text("order_number")},
                                  {"status", r.text("status")},
                                  {"total_amount", r.int64("total_amount")},
                                  {"currency", r.text("currency")},
                                  {"created_at", r.timestamp("created_at")},
                                  {"items", nlohmann::json::array()}});
            }
            if (auto name = r.optText("product_name"))
                orders.back()["items"].push_back(
                    {{"product_name", *name}, {"quantity", r.int64("quantity")}, {"unit_amount", r.int64("unit_amount")}});
        }
    }
    return {{"subscriptions", subscriptions}, {"active_subscriptions", active}, {"orders", orders}};
}

std::optional<nlohmann::json> AccountQueries::checkout(const std::string& userId, const std::string& checkoutId) {
    auto s = db_.session();
    Poco::Data::Statement st(s);
    std::string u = userId, c = checkoutId;
    st << db_.sql("SELECT CAST(c.id AS TEXT) AS id, c.status, c.mode, p.slug, o.order_number, o.status AS order_status, "
                  "o.total_amount, o.currency FROM checkout_sessions c JOIN orders o ON o.id = c.order_id "
                  "LEFT JOIN products p ON p.id = c.product_id WHERE c.id = ? AND c.user_id = ?"),
        use(c), use(u);
    st.execute();
    Poco::Data::RecordSet rs(st);
    if (rs.rowCount() == 0) return std::nullopt;
    db::Row r(rs, 0);
    std::string status = r.text("status");
    if (status == "creating") status = "open";
    return nlohmann::json{{"id", r.text("id")},
                          {"status", status},
                          {"mode", r.text("mode")},
                          {"product_slug", orNull(r.optText("slug"))},
                          {"order",
                           {{"order_number", r.text("order_number")},
                            {"status", r.text("order_status")},
                            {"total_amount", r.int64("total_amount")},
                            {"currency", r.text("currency")}}}};
}

std::optional<nlohmann::json> AccountQueries::validate(const std::string& userId, const std::string& productSlug) {
    auto s = db_.session();
    std::optional<std::string> productId;
    {
        Poco::Data::Statement st(s);
        std::string slug = productSlug;
        st << db_.sql("SELECT CAST(id AS TEXT) AS id FROM products WHERE slug = ? AND is_active = TRUE"), use(slug);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) return std::nullopt;
        productId = db::Row(rs, 0).text("id");
    }
    std::optional<SubscriptionState> state;
    {
        Poco::Data::Statement st(s);
        std::string u = userId, p = *productId;
        // The live subscription first, then the newest.
        st << db_.sql("SELECT status, CAST(current_period_end AS TEXT) AS current_period_end FROM subscriptions "
                      "WHERE user_id = ? AND product_id = ? ORDER BY CASE WHEN status IN ('active', 'trialing') THEN 0 "
                      "ELSE 1 END, created_at DESC LIMIT 1"),
            use(u), use(p);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() > 0) {
            db::Row r(rs, 0);
            std::optional<std::int64_t> end;
            if (auto e = r.optTimestamp("current_period_end")) end = db::epochFromTimestamp(*e);
            state = SubscriptionState{r.text("status"), end};
        }
    }
    const auto result = billing::validate(state, Poco::Timestamp().epochTime());
    return nlohmann::json{{"valid", result.valid},
                          {"status", result.status},
                          {"expiresAt", result.expiresAt ? nlohmann::json(db::timestampFromEpoch(*result.expiresAt))
                                                         : nlohmann::json(nullptr)},
                          {"daysRemaining", result.daysRemaining},
                          {"message", result.message}};
}

} // namespace storefront::billing

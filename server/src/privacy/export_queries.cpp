#include "privacy/export_queries.h"

#include <map>
#include <vector>

namespace storefront::privacy {

namespace {

using nlohmann::json;

constexpr const char* kUser =
    "SELECT CAST(u.id AS TEXT) AS id, u.email, u.phone, CAST(u.email_confirmed_at AS TEXT) AS email_confirmed_at, "
    "u.email_change, u.raw_user_meta_data, CAST(u.last_sign_in_at AS TEXT) AS last_sign_in_at, "
    "CAST(u.created_at AS TEXT) AS created_at, CAST(u.updated_at AS TEXT) AS updated_at, p.full_name "
    "FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = ? AND u.deleted_at IS NULL";
constexpr const char* kRoles =
    "SELECT role, CAST(granted_at AS TEXT) AS granted_at FROM user_roles WHERE user_id = ? ORDER BY role";
// Names, types and dates only: the secret column is not read.
constexpr const char* kFactors =
    "SELECT CAST(id AS TEXT) AS id, friendly_name, factor_type, status, CAST(created_at AS TEXT) AS created_at, "
    "CAST(updated_at AS TEXT) AS updated_at FROM mfa_factors WHERE user_id = ? ORDER BY created_at, id";
constexpr const char* kSessions =
    "SELECT CAST(id AS TEXT) AS id, aal, user_agent, ip, CAST(created_at AS TEXT) AS created_at, "
    "CAST(refreshed_at AS TEXT) AS refreshed_at FROM auth_sessions WHERE user_id = ? ORDER BY created_at, id";
constexpr const char* kOrders =
    "SELECT CAST(id AS TEXT) AS id, order_number, status, total_amount, refunded_amount, currency, customer_email, "
    "shipping_name, shipping_line1, shipping_line2, shipping_city, shipping_state, shipping_postal_code, "
    "shipping_country, shipping_phone, carrier, tracking_number, CAST(shipped_at AS TEXT) AS shipped_at, "
    "CAST(created_at AS TEXT) AS created_at FROM orders WHERE user_id = ? ORDER BY created_at DESC, id";
constexpr const char* kItems =
    "SELECT CAST(i.order_id AS TEXT) AS order_id, i.product_name, i.quantity, i.unit_amount FROM order_items i "
    "JOIN orders o ON o.id = i.order_id WHERE o.user_id = ? ORDER BY i.product_name, i.id";
constexpr const char* kSubscriptions =
    "SELECT CAST(s.id AS TEXT) AS id, p.name AS product_name, pp.name AS plan_name, s.status, s.payment_provider, "
    "CAST(s.current_period_end AS TEXT) AS current_period_end, s.cancel_at_period_end, "
    "CAST(s.created_at AS TEXT) AS created_at FROM subscriptions s JOIN products p ON p.id = s.product_id "
    "LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id";
constexpr const char* kInvoices =
    "SELECT number, kind, currency, total_amount, gst_amount, CAST(issued_at AS TEXT) AS issued_at "
    "FROM tax_invoices WHERE user_id = ? ORDER BY seq";
constexpr const char* kMemberships =
    "SELECT CAST(a.id AS TEXT) AS account_id, a.company_name, m.role, CAST(m.added_at AS TEXT) AS added_at, "
    "(a.admin_user_id = m.user_id) AS is_owner FROM enterprise_members m "
    "JOIN enterprise_accounts a ON a.id = m.enterprise_account_id WHERE m.user_id = ? ORDER BY m.added_at, m.id";
constexpr const char* kWorker =
    "SELECT CAST(id AS TEXT) AS id, full_name, email, ewrb_licence_number, entitlement, "
    "CAST(pro_expires_at AS TEXT) AS pro_expires_at, CAST(last_active_at AS TEXT) AS last_active_at, "
    "CAST(created_at AS TEXT) AS created_at FROM worker_profiles WHERE user_id = ?";
constexpr const char* kCertificates =
    "SELECT certificate_number, site_location, status, CAST(created_at AS TEXT) AS created_at, "
    "CAST(issued_at AS TEXT) AS issued_at FROM certificates WHERE worker_id = ? ORDER BY created_at, id";
constexpr const char* kRedemptions =
    "SELECT c.code, CAST(r.redeemed_at AS TEXT) AS redeemed_at FROM promo_code_redemptions r "
    "JOIN promo_codes c ON c.id = r.promo_code_id WHERE r.worker_id = ? ORDER BY r.redeemed_at, r.id";
// The messages the user sent while signed in (never those that merely give the address:
// migration 0021); contact_submissions_user_id_idx serves it.
constexpr const char* kContactMessages =
    "SELECT name, email, company, phone, message, CAST(created_at AS TEXT) AS created_at FROM contact_submissions "
    "WHERE user_id = ? ORDER BY created_at, id";
// The account's own events (sign-ins, failures, sign-outs, factor and password changes):
// audit_log_target_idx serves it.
constexpr const char* kEvents =
    "SELECT action, CAST(created_at AS TEXT) AS created_at, client_address, actor_role FROM audit_log "
    "WHERE target_type = 'user' AND target_id = ? ORDER BY created_at, id";

json orNull(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

json objectOrEmpty(const std::string& text) {
    auto value = json::parse(text, nullptr, false);
    return value.is_object() ? value : json::object();
}

} // namespace

std::optional<json> ExportQueries::read(Poco::Data::Session& s, const std::string& userId) {
    auto profile = db::query(s, kUser).bind(userId).one([](const db::Row& r) {
        return json{{"id", r.text("id")},
                    {"email", orNull(r.optText("email"))},
                    {"pending_email", orNull(r.optText("email_change"))},
                    {"phone", orNull(r.optText("phone"))},
                    {"full_name", orNull(r.optText("full_name"))},
                    {"email_confirmed_at", orNull(r.optTimestamp("email_confirmed_at"))},
                    {"user_metadata", objectOrEmpty(r.text("raw_user_meta_data"))},
                    {"last_sign_in_at", orNull(r.optTimestamp("last_sign_in_at"))},
                    {"created_at", r.timestamp("created_at")},
                    {"updated_at", r.timestamp("updated_at")}};
    });
    if (!profile) return std::nullopt;
    (*profile)["roles"] = db::query(s, kRoles).bind(userId).all([](const db::Row& r) {
        return json{{"role", r.text("role")}, {"granted_at", r.timestamp("granted_at")}};
    });

    json out;
    out["profile"] = *profile;
    out["sign_in_factors"] = db::query(s, kFactors).bind(userId).all([](const db::Row& r) {
        return json{{"id", r.text("id")},           {"friendly_name", orNull(r.optText("friendly_name"))},
                    {"factor_type", r.text("factor_type")}, {"status", r.text("status")},
                    {"created_at", r.timestamp("created_at")}, {"updated_at", r.timestamp("updated_at")}};
    });
    out["sessions"] = db::query(s, kSessions).bind(userId).all([](const db::Row& r) {
        return json{{"id", r.text("id")},
                    {"aal", r.text("aal")},
                    {"user_agent", orNull(r.optText("user_agent"))},
                    {"ip", orNull(r.optText("ip"))},
                    {"created_at", r.timestamp("created_at")},
                    {"refreshed_at", r.timestamp("refreshed_at")}};
    });

    std::map<std::string, json> items;
    for (auto& [orderId, line] : db::query(s, kItems).bind(userId).all([](const db::Row& r) {
             return std::pair<std::string, json>(r.text("order_id"), json{{"product_name", r.text("product_name")},
                                                                         {"quantity", r.int64("quantity")},
                                                                         {"unit_amount", r.int64("unit_amount")}});
         })) {
        auto& list = items[orderId];
        if (list.is_null()) list = json::array();
        list.push_back(std::move(line));
    }
    out["orders"] = db::query(s, kOrders).bind(userId).all([&items](const db::Row& r) {
        json address = nullptr;
        if (r.optText("shipping_line1"))
            address = {{"name", orNull(r.optText("shipping_name"))},
                       {"line1", orNull(r.optText("shipping_line1"))},
                       {"line2", orNull(r.optText("shipping_line2"))},
                       {"city", orNull(r.optText("shipping_city"))},
                       {"state", orNull(r.optText("shipping_state"))},
                       {"postal_code", orNull(r.optText("shipping_postal_code"))},
                       {"country", orNull(r.optText("shipping_country"))},
                       {"phone", orNull(r.optText("shipping_phone"))}};
        const auto id = r.text("id");
        auto it = items.find(id);
        return json{{"id", id},
                    {"order_number", r.text("order_number")},
                    {"status", r.text("status")},
                    {"total_amount", r.int64("total_amount")},
                    {"refunded_amount", r.int64("refunded_amount")},
                    {"currency", r.text("currency")},
                    {"customer_email", orNull(r.optText("customer_email"))},
                    {"shipping_address", address},
                    {"carrier", orNull(r.optText("carrier"))},
                    {"tracking_number", orNull(r.optText("tracking_number"))},
                    {"shipped_at", orNull(r.optTimestamp("shipped_at"))},
                    {"created_at", r.timestamp("created_at")},
                    {"items", it == items.end() ? json::array() : it->second}};
    });
    out["subscriptions"] = db::query(s, kSubscriptions).bind(userId).all([](const db::Row& r) {
        return json{{"id", r.text("id")},
                    {"product_name", r.text("product_name")},
                    {"plan_name", orNull(r.optText("plan_name"))},
                    {"status", r.text("status")},
                    {"payment_provider", r.text("payment_provider")},
                    {"current_period_end", orNull(r.optTimestamp("current_period_end"))},
                    {"cancel_at_period_end", r.boolean("cancel_at_period_end")},
                    {"created_at", r.timestamp("created_at")}};
    });
    out["invoices"] = db::query(s, kInvoices).bind(userId).all([](const db::Row& r) {
        const auto number = r.text("number");
        return json{{"number", number},
                    {"kind", r.text("kind")},
                    {"currency", r.text("currency")},
                    {"total_amount", r.int64("total_amount")},
                    {"gst_amount", r.int64("gst_amount")},
                    {"issued_at", r.timestamp("issued_at")},
                    {"url", "/account/invoices/" + number},
                    {"api_url", "/api/v1/account/invoices/" + number}};
    });
    out["enterprise_memberships"] = db::query(s, kMemberships).bind(userId).all([](const db::Row& r) {
        return json{{"account_id", r.text("account_id")}, {"company_name", r.text("company_name")},
                    {"role", r.text("role")},             {"added_at", r.timestamp("added_at")},
                    {"is_owner", r.boolean("is_owner")}};
    });

    json wirewrite = {{"profile", nullptr}, {"certificates", json::array()}, {"promo_code_redemptions", json::array()}};
    if (auto worker = db::query(s, kWorker).bind(userId).one([](const db::Row& r) {
            return json{{"id", r.text("id")},
                        {"full_name", orNull(r.optText("full_name"))},
                        {"email", orNull(r.optText("email"))},
                        {"ewrb_licence_number", orNull(r.optText("ewrb_licence_number"))},
                        {"entitlement", r.text("entitlement")},
                        {"pro_expires_at", orNull(r.optTimestamp("pro_expires_at"))},
                        {"last_active_at", orNull(r.optTimestamp("last_active_at"))},
                        {"created_at", r.timestamp("created_at")}};
        })) {
        const auto workerId = (*worker)["id"].get<std::string>();
        wirewrite["profile"] = *worker;
        wirewrite["certificates"] = db::query(s, kCertificates).bind(workerId).all([](const db::Row& r) {
            return json{{"certificate_number", orNull(r.optText("certificate_number"))},
                        {"site_location", orNull(r.optText("site_location"))},
                        {"status", r.text("status")},
                        {"created_at", r.timestamp("created_at")},
                        {"issued_at", orNull(r.optTimestamp("issued_at"))}};
        });
        wirewrite["promo_code_redemptions"] = db::query(s, kRedemptions).bind(workerId).all([](const db::Row& r) {
            return json{{"code", r.text("code")}, {"redeemed_at", r.timestamp("redeemed_at")}};
        });
    }
    out["wirewrite"] = std::move(wirewrite);

    out["contact_messages"] = db::query(s, kContactMessages).bind(userId).all([](const db::Row& r) {
            return json{{"name", r.text("name")},
                        {"email", r.text("email")},
                        {"company", orNull(r.optText("company"))},
                        {"phone", orNull(r.optText("phone"))},
                        {"message", r.text("message")},
                        {"created_at", r.timestamp("created_at")}};
        });
    out["sign_in_events"] = db::query(s, kEvents).bind(userId).all([](const db::Row& r) {
        return json{{"event", r.text("action")},
                    {"at", r.timestamp("created_at")},
                    {"client_address", orNull(r.optText("client_address"))},
                    {"by", r.text("actor_role")}};
    });
    return out;
}

} // namespace storefront::privacy

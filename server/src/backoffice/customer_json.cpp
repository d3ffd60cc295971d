#include "backoffice/customer_json.h"

namespace storefront::backoffice {

namespace {

nlohmann::json orNull(const std::optional<std::string>& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json toJson(const CustomerRow& c) {
    return {{"id", c.id},
            {"email", orNull(c.email)},
            {"full_name", orNull(c.fullName)},
            {"created_at", c.createdAt},
            {"last_sign_in_at", orNull(c.lastSignInAt)},
            {"email_confirmed_at", orNull(c.emailConfirmedAt)},
            {"closed", c.closedAt.has_value()},
            {"closed_at", orNull(c.closedAt)},
            {"is_admin", c.admin},
            {"two_factor", c.twoFactor}};
}

nlohmann::json toJson(const CustomerDetail& d) {
    auto customer = toJson(d.customer);
    customer["phone"] = orNull(d.phone);
    customer["confirmation_sent_at"] = orNull(d.confirmationSentAt);
    customer["recovery_sent_at"] = orNull(d.recoverySentAt);
    customer["invited_at"] = orNull(d.invitedAt);
    customer["banned_until"] = orNull(d.bannedUntil);
    customer["admin_since"] = orNull(d.adminSince);

    auto orders = nlohmann::json::array();
    for (const auto& o : d.orders)
        orders.push_back({{"id", o.id},
                          {"order_number", o.orderNumber},
                          {"status", o.status},
                          {"total_amount", o.totalAmount},
                          {"currency", o.currency},
                          {"created_at", o.createdAt}});
    auto subscriptions = nlohmann::json::array();
    for (const auto& s : d.subscriptions)
        subscriptions.push_back({{"id", s.id},
                                 {"product_name", s.productName},
                                 {"plan_name", orNull(s.planName)},
                                 {"status", s.status},
                                 {"current_period_end", orNull(s.currentPeriodEnd)},
                                 {"cancel_at_period_end", s.cancelAtPeriodEnd},
                                 {"created_at", s.createdAt}});
    auto invoices = nlohmann::json::array();
    for (const auto& i : d.invoices)
        invoices.push_back({{"id", i.id},
                            {"number", i.number},
                            {"kind", i.kind},
                            {"total_amount", i.totalAmount},
                            {"currency", i.currency},
                            {"order_id", orNull(i.orderId)},
                            {"issued_at", i.issuedAt}});
    auto enterprise = nlohmann::json::array();
    for (const auto& e : d.enterprise)
        enterprise.push_back({{"account_id", e.accountId}, {"company_name", e.companyName}, {"role", e.role}, {"is_active", e.active}});
    nlohmann::json wirewrite = nullptr;
    if (d.wirewrite) {
        const auto& w = *d.wirewrite;
        wirewrite = {{"id", w.id},
                     {"full_name", orNull(w.fullName)},
                     {"email", orNull(w.email)},
                     {"ewrb_licence_number", orNull(w.licenceNumber)},
                     {"entitlement", w.entitlement},
                     {"pro_expires_at", orNull(w.proExpiresAt)},
                     {"last_active_at", orNull(w.lastActiveAt)},
                     {"created_at", w.createdAt}};
    }
    auto factors = nlohmann::json::array();
    for (const auto& f : d.factors)
        factors.push_back({{"id", f.id},
                           {"friendly_name", orNull(f.friendlyName)},
                           {"factor_type", f.factorType},
                           {"status", f.status},
                           {"created_at", f.createdAt},
                           {"updated_at", f.updatedAt}});
    auto signIns = nlohmann::json::array();
    for (const auto& e : d.signIns)
        signIns.push_back({{"id", e.id}, {"action", e.action}, {"created_at", e.createdAt}, {"client_address", orNull(e.clientAddress)}});
    return {{"customer", std::move(customer)},   {"orders", std::move(orders)},
            {"subscriptions", std::move(subscriptions)}, {"invoices", std::move(invoices)},
            {"enterprise", std::move(enterprise)}, {"wirewrite", std::move(wirewrite)},
            {"factors", std::move(factors)},     {"sign_ins", std::move(signIns)}};
}

} // namespace storefront::backoffice

#include "api/billing_support.h"

#include "api/fake_stripe.h"
#include "billing/provider/stripe_provider.h"
#include "billing/provider/stripe_signature.h"

#include <stdexcept>

using namespace Poco::Data::Keywords;

namespace testing_support {

// created_at sits between the seed (2025) and the catalogue tests' own products (2030), which
// expect to be listed last.
TestProduct createHardware(int stock, std::int64_t priceCents) {
    TestProduct p{storefront::db::newId(), unique("hw")};
    execSql("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, track_inventory, "
            "stock_quantity, show_pricing, price_nzd, action_type, created_at, updated_at) VALUES (?, ?, ?, '<p>Test</p>', "
            "'physical', '/products/hit/hit-interface.svg', '[]', TRUE, TRUE, " + std::to_string(stock) + ", TRUE, " +
                std::to_string(priceCents) + ", 'checkout', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            {p.id, p.slug, "Test cable " + p.slug});
    return p;
}

TestProduct createSubscriptionProduct(std::string& planId, std::int64_t priceCents) {
    TestProduct p{storefront::db::newId(), unique("app")};
    execSql("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, track_inventory, "
            "show_pricing, price_nzd, action_type, created_at, updated_at) VALUES (?, ?, ?, '<p>Test</p>', 'subscription', "
            "'/products/hhtraff/hhtraff-icon.svg', '[]', TRUE, FALSE, TRUE, 0, 'checkout', '2026-01-01T00:00:00.000Z', "
            "'2026-01-01T00:00:00.000Z')",
            {p.id, p.slug, "Test app " + p.slug});
    planId = storefront::db::newId();
    execSql("INSERT INTO pricing_plans (id, product_id, name, price_amount, currency, billing_frequency_value, "
            "billing_frequency_unit, sort_order, created_at, updated_at) VALUES (?, ?, 'Monthly', " +
                std::to_string(priceCents) + ", 'NZD', 1, 'month', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            {planId, p.id});
    return p;
}

Session newBuyer(const std::string& prefix) { return signIn(createUser(prefix), newClientIp()); }

HttpResult startCheckout(const Session& buyer, const nlohmann::json& body, int port) {
    return sendJson(port ? port : env().port, "POST", "/functions/v1/create-checkout-session", body, buyer.headers());
}

HttpResult pressButton(const std::string& checkoutUrl, const std::string& button) {
    return http(env().port, "POST", pathOf(checkoutUrl) + "/" + button, button == "pay" ? kTestAddress : "",
                {{"Content-Type", "application/x-www-form-urlencoded"}});
}

HttpResult payWith(const std::string& checkoutUrl, const std::string& form) {
    return http(env().port, "POST", pathOf(checkoutUrl) + "/pay", form, {{"Content-Type", "application/x-www-form-urlencoded"}});
}

std::int64_t stockOf(const std::string& productId) {
    auto rows = textColumn("SELECT CAST(stock_quantity AS TEXT) FROM products WHERE id = ?", {productId});
    if (rows.empty()) throw std::runtime_error("no such product");
    return std::stoll(rows[0]);
}

std::string orderStatusOfCheckout(const std::string& checkoutId) {
    auto rows = textColumn("SELECT o.status FROM orders o JOIN checkout_sessions c ON c.order_id = o.id WHERE c.id = ?",
                           {checkoutId});
    return rows.empty() ? "" : rows[0];
}

std::string checkoutStatus(const std::string& checkoutId) {
    auto rows = textColumn("SELECT status FROM checkout_sessions WHERE id = ?", {checkoutId});
    return rows.empty() ? "" : rows[0];
}

FakeStripe& fakeStripe() {
    static FakeStripe stripe; // outlives the servers (stopped at exit after the tests)
    return stripe;
}

int fakeStripeServer() {
    return serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                       {"STRIPE_API_BASE", fakeStripe().apiBase()},
                       {"STRIPE_SECRET_KEY", fakeStripe().secretKey()},
                       {"STRIPE_WEBHOOK_SECRET", kFakeStripeWebhookSecret},
                       {"STRIPE_TIMEOUT_SECONDS", "2"}});
}

nlohmann::json stripeEvent(const std::string& type, const nlohmann::json& object, std::string id) {
    if (id.empty()) id = unique("evt_");
    const std::int64_t now = Poco::Timestamp().epochTime();
    return {{"id", id},
            {"object", "event"},
            {"api_version", std::string(storefront::billing::kStripeApiVersion)},
            {"created", now},
            {"livemode", false},
            {"pending_webhooks", 1},
            {"request", {{"id", nullptr}, {"idempotency_key", nullptr}}},
            {"type", type},
            {"data", {{"object", object}}}};
}

HttpResult deliverStripePayload(int port, const std::string& secret, const std::string& payload) {
    return http(port, "POST", "/webhooks/stripe", payload,
                {{"Content-Type", "application/json"},
                 {"Stripe-Signature", storefront::billing::stripeSignatureHeader(secret, payload, Poco::Timestamp().epochTime())}});
}

HttpResult deliverStripeEvent(int port, const std::string& secret, const nlohmann::json& event) {
    return deliverStripePayload(port, secret, event.dump());
}

} // namespace testing_support

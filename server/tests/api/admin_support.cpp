#include "api/admin_support.h"

#include "billing/orders/rules.h"

#include <gtest/gtest.h>

namespace testing_support {

const Callers& callers() {
    static const Callers c = [] {
        Callers out;
        out.visitor = as(newClientIp());
        out.customer = signIn(createUser("bo-customer"), newClientIp()).headers();
        auto admin = createStaffAdmin(newClientIp());
        out.admin = admin.session.headers();
        out.adminId = admin.account.id;
        out.adminEmail = admin.account.email;
        out.adminAal1 = signIn(admin.account, newClientIp()).headers();
        return out;
    }();
    return c;
}

namespace {

HttpResult send(const std::string& method, const std::string& path, const nlohmann::json& body, const Headers& h) {
    if (body.is_null()) return http(env().port, method, path, "", h);
    return sendJson(env().port, method, path, body, h);
}

} // namespace

void expectStaffOnly(const std::string& method, const std::string& path, const nlohmann::json& body) {
    const auto& c = callers();
    auto visitor = send(method, path, body, c.visitor);
    EXPECT_EQ(visitor.status, 401) << method << " " << path << " " << visitor.body;
    auto customer = send(method, path, body, c.customer);
    EXPECT_EQ(customer.status, 403) << method << " " << path;
    if (customer.status == 403) {
        EXPECT_EQ(customer.json()["message"], "Access denied. Admin privileges required.");
    }
    auto aal1 = send(method, path, body, c.adminAal1);
    EXPECT_EQ(aal1.status, 403) << method << " " << path;
    if (aal1.status == 403) {
        EXPECT_EQ(aal1.json()["code"], "insufficient_aal");
    }
}

HttpResult sendRaw(const std::string& method, const std::string& path, const std::string& body, const std::string& type,
                   const Headers& headers) {
    auto h = headers;
    h["Content-Type"] = type;
    return http(env().port, method, path, body, h);
}

ArrangedOrder insertOrder(const std::string& status, std::int64_t total, const std::string& createdAt,
                          const std::optional<std::string>& email, const std::optional<std::string>& userId,
                          const std::string& currency, bool physical) {
    ArrangedOrder o{storefront::db::newId(), storefront::billing::newOrderNumber()};
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, created_at, "
                 "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(o.id, o.orderNumber, userId, status, total, currency, email, createdAt, createdAt)
            .run();
        // The line is of a physical product (hidden from the catalogue), so the order can ship.
        auto product = tx.query("SELECT CAST(id AS TEXT) FROM products WHERE slug = 'arranged-cable'").text();
        if (!product) {
            product = storefront::db::newId();
            tx.query("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, track_inventory, "
                     "stock_quantity, show_pricing, price_nzd, action_type, created_at, updated_at) VALUES (?, 'arranged-cable', "
                     "'Arranged cable', '<p>Test</p>', 'physical', '/products/hit/hit-interface.svg', '[]', FALSE, FALSE, 0, "
                     "TRUE, 100, 'checkout', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')")
                .bind(*product)
                .run();
        }
        tx.query("INSERT INTO order_items (id, order_id, product_id, product_name, quantity, unit_amount) VALUES (?, ?, ?, ?, 1, ?)")
            .bind(storefront::db::newId(), o.id, physical ? product : std::optional<std::string>(), "Arranged item", total)
            .run();
    });
    return o;
}

nlohmann::json adminOrder(const std::string& orderId) {
    auto r = getJson("/api/v1/admin/orders/" + orderId, callers().admin);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["order"];
}

std::int64_t auditCount(const std::string& action, const std::string& targetId) {
    return countRows("SELECT COUNT(*) FROM audit_log WHERE action = ? AND target_id = ?", {action, targetId});
}

} // namespace testing_support

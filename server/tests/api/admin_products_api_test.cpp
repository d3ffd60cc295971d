// Staff product and pricing-plan routes: roles, create / update / delete with their audit entries,
// slug rules, sanitised rich text, exact prices, and every bad input answered 4xx with no row changed.
#include "api/admin_support.h"

#include <gtest/gtest.h>

#include <Poco/String.h>

#include <chrono>
#include <thread>

using namespace testing_support;

namespace {

std::int64_t productCount() { return countRows("SELECT COUNT(*) FROM products"); }
std::int64_t planCount() { return countRows("SELECT COUNT(*) FROM pricing_plans"); }

nlohmann::json newProductBody(const std::string& slug) {
    return {{"name", "Test Product " + slug}, {"slug", slug}, {"type", "physical"}, {"description", "<p>Hello</p>"}};
}

std::string createProduct(const std::string& slug) {
    auto res = postJson("/api/v1/admin/products", newProductBody(slug), callers().admin);
    if (res.status != 201) throw std::runtime_error("create product: " + res.body);
    return res.json()["product"]["id"].get<std::string>();
}

std::string createPlan(const std::string& productId, const std::string& price = "9.00") {
    auto res = postJson("/api/v1/admin/products/" + productId + "/plans",
                        {{"name", "Monthly"}, {"price", price}, {"currency", "NZD"}, {"billing_frequency_value", 1},
                         {"billing_frequency_unit", "month"}},
                        callers().admin);
    if (res.status != 201) throw std::runtime_error("create plan: " + res.body);
    return res.json()["plan"]["id"].get<std::string>();
}

} // namespace

TEST(AdminProductsApi, OnlyStaffAdminsPastTheTwoFactorStep) {
    const auto id = createProduct(unique("roles-"));
    const auto plan = createPlan(id);
    const auto before = productCount();
    expectStaffOnly("GET", "/api/v1/admin/products");
    expectStaffOnly("POST", "/api/v1/admin/products", newProductBody(unique("denied-")));
    expectStaffOnly("PATCH", "/api/v1/admin/products/" + id, {{"name", "Hijacked"}});
    expectStaffOnly("DELETE", "/api/v1/admin/products/" + id);
    expectStaffOnly("POST", "/api/v1/admin/products/" + id + "/plans", {{"name", "X"}, {"price", "1.00"}});
    expectStaffOnly("PATCH", "/api/v1/admin/plans/" + plan, {{"name", "Hijacked"}});
    expectStaffOnly("DELETE", "/api/v1/admin/plans/" + plan);
    EXPECT_EQ(productCount(), before);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE id = ? AND name LIKE 'Test Product%'", {id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM pricing_plans WHERE id = ? AND name = 'Monthly'", {plan}), 1);
    EXPECT_EQ(getJson("/api/v1/admin/products", callers().admin).status, 200);
}

TEST(AdminProductsApi, CreateNormalisesSanitisesAuditsAndShowsPublicly) {
    const auto slug = unique("New Cable ");
    nlohmann::json body = {
        {"name", "  Shiny Cable  "},
        {"slug", "  " + slug + "  "},
        {"type", "physical"},
        {"description", "<p>Safe <strong>bold</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>"},
        {"description_detail", "<h2>Detail</h2><a href=\"javascript:alert(1)\">x</a>"},
        {"stock_quantity", 7},
        {"track_inventory", true},
        {"features", {"  Fast  ", "", "   ", "Strong"}},
        {"action_type", "checkout"},
        {"action_url", "https://example.com/buy"},
        {"price_nzd", 2599},
        {"is_active", true}};
    auto res = postJson("/api/v1/admin/products", body, callers().admin);
    ASSERT_EQ(res.status, 201) << res.body;
    auto p = res.json()["product"];
    EXPECT_EQ(p["name"], "Shiny Cable");
    EXPECT_EQ(p["slug"], "new-cable-" + slug.substr(std::string("New Cable ").size()));
    EXPECT_EQ(p["features"], nlohmann::json({"Fast", "Strong"}));
    EXPECT_EQ(p["stock_quantity"], 7);
    EXPECT_EQ(p["plans"], nlohmann::json::array());
    const auto id = p["id"].get<std::string>();
    // Nothing dangerous reaches the stored row.
    auto stored = textColumn("SELECT description || COALESCE(description_detail, '') FROM products WHERE id = ?", {id});
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(stored[0].find("<script"), std::string::npos);
    EXPECT_EQ(stored[0].find("onerror"), std::string::npos);
    EXPECT_EQ(stored[0].find("javascript:"), std::string::npos);
    EXPECT_NE(stored[0].find("<strong>bold</strong>"), std::string::npos);
    EXPECT_EQ(auditCount("product.created", id), 1);
    // The public API shows it at once.
    auto pub = getJson("/api/v1/products/" + p["slug"].get<std::string>());
    ASSERT_EQ(pub.status, 200) << pub.body;
    EXPECT_EQ(pub.json()["product"]["name"], "Shiny Cable");
}

TEST(AdminProductsApi, ATakenSlugIsA409AndChangesNothing) {
    const auto slug = unique("taken-");
    createProduct(slug);
    const auto before = productCount();
    auto res = postJson("/api/v1/admin/products", newProductBody(slug), callers().admin);
    EXPECT_EQ(res.status, 409);
    EXPECT_EQ(res.json()["code"], "slug_taken");
    EXPECT_EQ(res.json()["message"], "The slug '" + slug + "' is already used by another product.");
    EXPECT_TRUE(res.json()["fields"].contains("slug"));
    // Upper case and spaces normalise to the same slug.
    auto upper = postJson("/api/v1/admin/products", newProductBody(" " + Poco::toUpper(slug) + " "), callers().admin);
    EXPECT_EQ(upper.status, 409);
    EXPECT_EQ(productCount(), before);
    // Renaming another product onto it is refused too.
    const auto other = createProduct(unique("other-"));
    auto patch = patchJson("/api/v1/admin/products/" + other, {{"slug", slug}}, callers().admin);
    EXPECT_EQ(patch.status, 409);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE slug = ?", {slug}), 1);
}

TEST(AdminProductsApi, BadProductInputIsA4xxAndChangesNoRow) {
    const auto slug = unique("bad-");
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {nlohmann::json::object(), "name"},
        {{{"name", "X"}}, "slug"},
        {{{"name", 5}, {"slug", slug}}, "name"},
        {{{"name", "X"}, {"slug", "bad/slug!"}}, "slug"},
        {{{"name", "X"}, {"slug", slug}, {"stock_quantity", -1}}, "stock_quantity"},
        {{{"name", "X"}, {"slug", slug}, {"stock_quantity", 1.5}}, "stock_quantity"},
        {{{"name", "X"}, {"slug", slug}, {"stock_quantity", "three"}}, "stock_quantity"},
        {{{"name", "X"}, {"slug", slug}, {"price_nzd", -5}}, "price_nzd"},
        {{{"name", "X"}, {"slug", slug}, {"price_nzd", 19.99}}, "price_nzd"},
        {{{"name", "X"}, {"slug", slug}, {"type", "digital"}}, "type"},
        {{{"name", "X"}, {"slug", slug}, {"action_url", "javascript:alert(1)"}}, "action_url"},
        {{{"name", "X"}, {"slug", slug}, {"action_url", "ftp://example.com"}}, "action_url"},
        {{{"name", "X"}, {"slug", slug}, {"features", "one"}}, "features"},
        {{{"name", "X"}, {"slug", slug}, {"features", {1, 2}}}, "features"},
        {{{"name", "X"}, {"slug", slug}, {"track_inventory", "yes"}}, "track_inventory"},
        {{{"name", "X"}, {"slug", slug}, {"is_active", 1}}, "is_active"},
        {{{"name", "X"}, {"slug", slug}, {"icon_url", "javascript:alert(1)"}}, "icon_url"},
        {{{"name", "X"}, {"slug", slug}, {"billing_interval", "week"}}, "billing_interval"},
        {{{"name", std::string(201, 'n')}, {"slug", slug}}, "name"},
    };
    const auto before = productCount();
    for (const auto& [body, field] : cases) {
        auto res = postJson("/api/v1/admin/products", body, callers().admin);
        EXPECT_EQ(res.status, 422) << body.dump();
        if (res.status == 422) {
            EXPECT_EQ(res.json()["code"], "validation_failed");
            EXPECT_TRUE(res.json()["fields"].contains(field)) << body.dump() << " " << res.body;
        }
    }
    // Not JSON, not an object, not application/json, too big.
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/products", "{nope", "application/json", callers().admin).status, 400);
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/products", "[]", "application/json", callers().admin).status, 400);
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/products", "name=x", "text/plain", callers().admin).status, 415);
    nlohmann::json huge = newProductBody(unique("huge-"));
    huge["description"] = std::string(70000, 'a');
    EXPECT_EQ(postJson("/api/v1/admin/products", huge, callers().admin).status, 413);
    EXPECT_EQ(productCount(), before);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE slug = ?", {slug}), 0);
}

TEST(AdminProductsApi, ListIsEveryProductNewestFirstWithPlansSearchedAndPaged) {
    const auto tag = unique("listed-");
    const auto first = createProduct(tag + "-a");
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    const auto second = createProduct(tag + "-b");
    createPlan(second, "5.00");
    ASSERT_EQ(patchJson("/api/v1/admin/products/" + first, {{"is_active", false}}, callers().admin).status, 200);

    auto res = getJson("/api/v1/admin/products?q=" + tag, callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto j = res.json();
    EXPECT_EQ(j["total"], 2);
    ASSERT_EQ(j["items"].size(), 2u);
    EXPECT_EQ(j["items"][0]["id"], second);
    EXPECT_EQ(j["items"][0]["plans"].size(), 1u);
    EXPECT_EQ(j["items"][0]["plans"][0]["price_amount"], 500);
    EXPECT_EQ(j["items"][0]["plans"][0]["product_id"], second);
    EXPECT_EQ(j["items"][1]["id"], first);
    EXPECT_EQ(j["items"][1]["is_active"], false);

    auto paged = getJson("/api/v1/admin/products?q=" + tag + "&page_size=1&page=2", callers().admin);
    ASSERT_EQ(paged.status, 200);
    EXPECT_EQ(paged.json()["total"], 2);
    EXPECT_EQ(paged.json()["page"], 2);
    ASSERT_EQ(paged.json()["items"].size(), 1u);
    EXPECT_EQ(paged.json()["items"][0]["id"], first);
    // An inactive product leaves the public API.
    EXPECT_EQ(getJson("/api/v1/products/" + tag + "-a").status, 404);
    EXPECT_EQ(getJson("/api/v1/admin/products?page_size=500", callers().admin).status, 422);
}

TEST(AdminProductsApi, PatchChangesOnlyWhatItNamesAndAudits) {
    const auto slug = unique("patch-");
    const auto id = createProduct(slug);
    auto res = patchJson("/api/v1/admin/products/" + id,
                         {{"name", "Renamed"}, {"stock_quantity", nullptr}, {"show_pricing", false}, {"unknown", 1}},
                         callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto p = res.json()["product"];
    EXPECT_EQ(p["name"], "Renamed");
    EXPECT_EQ(p["slug"], slug);
    EXPECT_EQ(p["type"], "physical");
    EXPECT_EQ(p["description"], "<p>Hello</p>");
    EXPECT_EQ(p["show_pricing"], false);
    EXPECT_EQ(auditCount("product.updated", id), 1);
    auto entry = textColumn("SELECT before_json FROM audit_log WHERE action = 'product.updated' AND target_id = ?", {id});
    ASSERT_EQ(entry.size(), 1u);
    EXPECT_EQ(nlohmann::json::parse(entry[0])["name"], "Test Product " + slug);

    // A bad field rolls the whole change back.
    auto bad = patchJson("/api/v1/admin/products/" + id, {{"name", "Again"}, {"stock_quantity", -3}}, callers().admin);
    EXPECT_EQ(bad.status, 422);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE id = ? AND name = 'Renamed'", {id}), 1);
    EXPECT_EQ(auditCount("product.updated", id), 1);

    EXPECT_EQ(patchJson("/api/v1/admin/products/not-a-uuid", {{"name", "X"}}, callers().admin).status, 404);
    auto unknown = patchJson("/api/v1/admin/products/" + storefront::db::newId(), {{"name", "X"}}, callers().admin);
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "product_not_found");
}

TEST(AdminProductsApi, DeleteRefusesAProductInUseAndRemovesAnUnusedOne) {
    const auto id = createProduct(unique("delete-"));
    auto res = del("/api/v1/admin/products/" + id, callers().admin);
    EXPECT_EQ(res.status, 204) << res.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE id = ?", {id}), 0);
    EXPECT_EQ(auditCount("product.deleted", id), 1);
    EXPECT_EQ(del("/api/v1/admin/products/" + id, callers().admin).status, 404);
    EXPECT_EQ(del("/api/v1/admin/products/12345", callers().admin).status, 404);

    // A product with an order line stays.
    const auto used = createProduct(unique("used-"));
    auto order = insertOrder("paid", 1000, testClock().nowTimestamp());
    execSql("UPDATE order_items SET product_id = ? WHERE order_id = ?", {used, order.id});
    auto refused = del("/api/v1/admin/products/" + used, callers().admin);
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.json()["code"], "product_in_use");
    EXPECT_EQ(refused.json()["message"],
              "This product has orders, subscriptions or licences and cannot be deleted. Deactivate it instead.");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM products WHERE id = ?", {used}), 1);
    EXPECT_EQ(auditCount("product.deleted", used), 0);
}

TEST(AdminPlansApi, PricesAreParsedExactlyAndAudited) {
    const auto product = createProduct(unique("plans-"));
    auto res = postJson("/api/v1/admin/products/" + product + "/plans",
                        {{"name", "Yearly"}, {"price", "19.99"}, {"currency", "AUD"}, {"billing_frequency_value", 12},
                         {"billing_frequency_unit", "month"}, {"sort_order", 2}},
                        callers().admin);
    ASSERT_EQ(res.status, 201) << res.body;
    auto plan = res.json()["plan"];
    EXPECT_EQ(plan["price_amount"], 1999);
    EXPECT_EQ(plan["currency"], "AUD");
    EXPECT_EQ(plan["billing_frequency_value"], 12);
    EXPECT_EQ(plan["product_id"], product);
    const auto id = plan["id"].get<std::string>();
    EXPECT_EQ(auditCount("plan.created", id), 1);

    auto patched = patchJson("/api/v1/admin/plans/" + id, {{"price", "0.1"}}, callers().admin);
    ASSERT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(patched.json()["plan"]["price_amount"], 10);
    EXPECT_EQ(patched.json()["plan"]["name"], "Yearly");
    EXPECT_EQ(patched.json()["plan"]["currency"], "AUD");
    EXPECT_EQ(auditCount("plan.updated", id), 1);

    // The product detail lists it.
    auto list = getJson("/api/v1/admin/products?q=" + textColumn("SELECT slug FROM products WHERE id = ?", {product})[0],
                        callers().admin);
    ASSERT_EQ(list.json()["items"].size(), 1u);
    EXPECT_EQ(list.json()["items"][0]["plans"][0]["price_amount"], 10);
}

TEST(AdminPlansApi, BadPlanInputIsA422AndChangesNoRow) {
    const auto product = createProduct(unique("badplans-"));
    const auto plan = createPlan(product, "3.00");
    const nlohmann::json good = {{"name", "P"}, {"price", "1.00"}, {"currency", "NZD"}, {"billing_frequency_value", 1},
                                 {"billing_frequency_unit", "month"}};
    auto with = [&](const char* key, nlohmann::json value) {
        auto b = good;
        if (value.is_null()) b.erase(key);
        else b[key] = std::move(value);
        return b;
    };
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {with("price", "0.005"), "price"},   {with("price", "-1"), "price"},      {with("price", "1e3"), "price"},
        {with("price", 19.99), "price"},     {with("price", "99999999999"), "price"}, {with("price", nullptr), "price"},
        {with("price", "abc"), "price"},     {with("currency", "EUR"), "currency"},
        {with("billing_frequency_value", 2), "billing_frequency_value"},
        {with("billing_frequency_value", "1"), "billing_frequency_value"},
        {with("billing_frequency_unit", "week"), "billing_frequency_unit"},
        {with("name", nullptr), "name"},     {with("name", "   "), "name"},     {with("sort_order", 1.5), "sort_order"},
    };
    const auto before = planCount();
    for (const auto& [body, field] : cases) {
        auto res = postJson("/api/v1/admin/products/" + product + "/plans", body, callers().admin);
        EXPECT_EQ(res.status, 422) << body.dump();
        if (res.status == 422) {
            EXPECT_TRUE(res.json()["fields"].contains(field)) << body.dump() << " " << res.body;
        }
        // A PATCH names the field as null rather than leaving it out (left out keeps the stored value).
        auto patchBody = body;
        if (!patchBody.contains(field)) patchBody[field] = nullptr;
        auto patch = patchJson("/api/v1/admin/plans/" + plan, patchBody, callers().admin);
        EXPECT_EQ(patch.status, 422) << body.dump();
    }
    EXPECT_EQ(planCount(), before);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM pricing_plans WHERE id = ? AND price_amount = 300 AND name = 'Monthly'", {plan}), 1);
    EXPECT_EQ(postJson("/api/v1/admin/products/nope/plans", good, callers().admin).status, 404);
    EXPECT_EQ(postJson("/api/v1/admin/products/" + storefront::db::newId() + "/plans", good, callers().admin).status, 404);
    EXPECT_EQ(patchJson("/api/v1/admin/plans/" + storefront::db::newId(), good, callers().admin).status, 404);
    EXPECT_EQ(planCount(), before);
}

TEST(AdminPlansApi, DeleteRefusesAPlanInUse) {
    const auto product = createProduct(unique("planuse-"));
    const auto unused = createPlan(product);
    EXPECT_EQ(del("/api/v1/admin/plans/" + unused, callers().admin).status, 204);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM pricing_plans WHERE id = ?", {unused}), 0);
    EXPECT_EQ(auditCount("plan.deleted", unused), 1);
    EXPECT_EQ(del("/api/v1/admin/plans/" + unused, callers().admin).status, 404);

    const auto used = createPlan(product);
    auto buyer = createUser("plan-subscriber");
    execSql("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, 'active', 'manual', ?, ?)",
            {storefront::db::newId(), buyer.id, product, used, testClock().nowTimestamp(), testClock().nowTimestamp()});
    auto refused = del("/api/v1/admin/plans/" + used, callers().admin);
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.json()["code"], "plan_in_use");
    EXPECT_EQ(refused.json()["message"], "Subscriptions use this plan, so it cannot be deleted.");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM pricing_plans WHERE id = ?", {used}), 1);
    // And the product with a subscription cannot go either.
    EXPECT_EQ(del("/api/v1/admin/products/" + product, callers().admin).status, 409);
}

TEST(AdminProductsApi, AChangeLeavesTheResponseCacheAtOnce) {
    // A server that caches catalogue responses for a minute.
    const int port = serverWith({{"STOREFRONT_CATALOG_CACHE_MS", "60000"}});
    const auto slug = unique("cached-");
    auto created = sendJson(port, "POST", "/api/v1/admin/products", newProductBody(slug), callers().admin);
    ASSERT_EQ(created.status, 201) << created.body;
    const auto id = created.json()["product"]["id"].get<std::string>();
    auto first = http(port, "GET", "/api/v1/products/" + slug, "", {{"Accept", "application/json"}});
    ASSERT_EQ(first.status, 200);
    EXPECT_EQ(first.json()["product"]["plans"].size(), 0u);
    ASSERT_EQ(sendJson(port, "PATCH", "/api/v1/admin/products/" + id, {{"name", "Fresh Name"}}, callers().admin).status, 200);
    ASSERT_EQ(sendJson(port, "POST", "/api/v1/admin/products/" + id + "/plans", {{"name", "Monthly"}, {"price", "4.50"}},
                       callers().admin)
                  .status,
              201);
    auto second = http(port, "GET", "/api/v1/products/" + slug, "", {{"Accept", "application/json"}});
    EXPECT_EQ(second.json()["product"]["name"], "Fresh Name");
    ASSERT_EQ(second.json()["product"]["plans"].size(), 1u);
    EXPECT_EQ(second.json()["product"]["plans"][0]["price_amount"], 450);
    auto sitemap = http(port, "GET", "/sitemap.xml");
    EXPECT_NE(sitemap.body.find(slug), std::string::npos);
}

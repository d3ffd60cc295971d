#include "api/harness.h"

#include <gtest/gtest.h>

using namespace testing_support;
using namespace Poco::Data::Keywords;

namespace {

// Inserts a product straight into the database; returns its slug.
std::string insertProduct(std::string name, bool active, std::string type = "physical") {
    auto& e = env();
    std::string id = storefront::db::newId(), slug = unique("test-product"), at = "2030-01-01T00:00:00.000Z";
    std::string features = R"(["One","Two"])", description = "<p>Test product</p>", icon = "/products/hit/hit-interface.svg";
    bool isActive = active;
    auto s = e.db->session();
    s << e.db->sql("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, "
                   "track_inventory, stock_quantity, show_pricing, price_nzd, created_at, updated_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, TRUE, 3, TRUE, 2500, ?, ?)"),
        use(id), use(slug), use(name), use(description), use(type), use(icon), use(features), use(isActive), use(at), use(at), now;
    return slug;
}

} // namespace

TEST(Health, AnswersWithTheDatabaseKind) {
    auto r = getJson("/healthz");
    ASSERT_EQ(r.status, 200);
    auto j = r.json();
    EXPECT_EQ(j["status"], "ok");
    EXPECT_TRUE(j["database"] == "sqlite" || j["database"] == "postgresql");
}

TEST(CatalogApi, ListsActiveProductsOldestFirstWithoutPlans) {
    auto r = getJson("/api/v1/products");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "application/json; charset=utf-8");
    auto products = r.json()["products"];
    ASSERT_GE(products.size(), 5u);
    EXPECT_EQ(products[0]["slug"], "hhtraff");
    std::string previous;
    for (const auto& p : products) {
        EXPECT_TRUE(p["is_active"].get<bool>());
        EXPECT_FALSE(p.contains("plans"));
        EXPECT_TRUE(p["price_nzd"].is_number_integer());
        EXPECT_TRUE(p["features"].is_array());
        EXPECT_LE(previous, p["created_at"].get<std::string>());
        previous = p["created_at"].get<std::string>();
    }
}

TEST(CatalogApi, SeededCatalogueHasLowStockAndSoldOutHardware) {
    auto products = getJson("/api/v1/products").json()["products"];
    std::map<std::string, nlohmann::json> bySlug;
    for (const auto& p : products) bySlug[p["slug"]] = p;
    ASSERT_TRUE(bySlug.contains("bluetooth-serial-adapter"));
    ASSERT_TRUE(bySlug.contains("hit-rs485-interface"));
    ASSERT_TRUE(bySlug.contains("wirewrite"));
    EXPECT_EQ(bySlug["bluetooth-serial-adapter"]["stock_quantity"], 4);
    EXPECT_EQ(bySlug["hit-rs485-interface"]["stock_quantity"], 0);
    EXPECT_TRUE(bySlug["hit-rs485-interface"]["track_inventory"].get<bool>());
    EXPECT_EQ(bySlug["wirewrite"]["action_type"], "external_link");
    EXPECT_EQ(bySlug["hhtraff"]["type"], "subscription");
}

TEST(CatalogApi, ProductDetailCarriesPlansInSortOrder) {
    auto r = getJson("/api/v1/products/hhtraff");
    ASSERT_EQ(r.status, 200);
    auto p = r.json()["product"];
    EXPECT_EQ(p["name"], "HHTraff Terminal");
    ASSERT_GE(p["plans"].size(), 2u);
    EXPECT_LE(p["plans"][0]["sort_order"].get<int>(), p["plans"][1]["sort_order"].get<int>());
    EXPECT_EQ(p["plans"][0]["currency"], "NZD");
    EXPECT_TRUE(p["plans"][0]["price_amount"].is_number_integer());
}

TEST(CatalogApi, MissingInactiveAndStrangeSlugsAre404) {
    auto inactive = insertProduct("Hidden cable", false);
    for (const std::string& path : std::vector<std::string>{"/api/v1/products/no-such-product", "/api/v1/products/" + inactive,
                             "/api/v1/products/HHTRAFF", "/api/v1/products/..%2F..%2Fetc%2Fpasswd",
                             "/api/v1/products/%00", "/api/v1/products/a%20b", "/api/v1/products/" + std::string(300, 'a'),
                             "/api/v1/products/%3Cscript%3E"}) {
        auto r = getJson(path);
        EXPECT_EQ(r.status, 404) << path;
        // An encoded slash makes extra path segments: no route at all, still a clean JSON 404.
        auto code = r.json()["code"].get<std::string>();
        EXPECT_TRUE(code == "product_not_found" || code == "not_found") << path;
    }
    auto listed = getJson("/api/v1/products").json()["products"];
    for (const auto& p : listed) EXPECT_NE(p["slug"], inactive);
}

TEST(CatalogApi, ANewActiveProductAppearsLast) {
    auto slug = insertProduct("Newest cable", true);
    auto products = getJson("/api/v1/products").json()["products"];
    EXPECT_EQ(products.back()["slug"], slug);
    EXPECT_EQ(getJson("/api/v1/products/" + slug).status, 200);
}

#include "api/harness.h"

#include <gtest/gtest.h>

using namespace testing_support;
using namespace Poco::Data::Keywords;

namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

nlohmann::json initialData(const std::string& html) {
    const std::string open = "<script id=\"initial-data\" type=\"application/json\">";
    auto start = html.find(open);
    if (start == std::string::npos) return nullptr;
    start += open.size();
    auto end = html.find("</script>", start);
    return nlohmann::json::parse(html.substr(start, end - start));
}

} // namespace

TEST(Pages, LandingPageHasARealHeadAndItsInitialData) {
    auto r = get("/");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "text/html; charset=utf-8");
    EXPECT_TRUE(contains(r.body, "<title>"));
    EXPECT_TRUE(contains(r.body, "<link rel=\"canonical\" href=\"https://shop.signalcraft.test/\""));
    EXPECT_TRUE(contains(r.body, "og:title"));
    EXPECT_FALSE(contains(r.body, "<!--app-head-->"));
    auto data = initialData(r.body);
    ASSERT_TRUE(data.is_object());
    EXPECT_EQ(data["page"], "landing");
    EXPECT_GE(data["products"].size(), 5u);
    EXPECT_NE(r.header("strict-transport-security"), ""); // the public URL is https
}

TEST(Pages, ProductPageHasProductJsonLdAndTheProduct) {
    auto r = get("/product/bluetooth-serial-adapter");
    ASSERT_EQ(r.status, 200);
    EXPECT_TRUE(contains(r.body, "<title>Bluetooth Serial Adapter"));
    EXPECT_TRUE(contains(r.body, "https://shop.signalcraft.test/product/bluetooth-serial-adapter"));
    EXPECT_TRUE(contains(r.body, "application/ld+json"));
    EXPECT_TRUE(contains(r.body, "\"@type\":\"Product\""));
    EXPECT_TRUE(contains(r.body, "https://schema.org/InStock"));
    EXPECT_TRUE(contains(r.body, "\"priceCurrency\":\"NZD\""));
    auto data = initialData(r.body);
    EXPECT_EQ(data["page"], "product");
    EXPECT_EQ(data["product"]["slug"], "bluetooth-serial-adapter");
    EXPECT_TRUE(data["product"].contains("plans"));
}

TEST(Pages, SoldOutProductSaysOutOfStockToCrawlers) {
    auto r = get("/product/hit-rs485-interface");
    ASSERT_EQ(r.status, 200);
    EXPECT_TRUE(contains(r.body, "https://schema.org/OutOfStock"));
}

TEST(Pages, UnknownProductIsA404PageWithNoindex) {
    auto r = get("/product/no-such-thing");
    EXPECT_EQ(r.status, 404);
    EXPECT_TRUE(contains(r.body, "Product Not Found"));
    EXPECT_TRUE(contains(r.body, "noindex"));
    auto data = initialData(r.body);
    EXPECT_EQ(data["page"], "product");
    EXPECT_TRUE(data["product"].is_null());
    EXPECT_EQ(get("/product/..%2F..%2Fetc%2Fpasswd").status, 404);
}

TEST(Pages, ScriptInAProductNameCannotBreakOutOfThePage) {
    auto& e = env();
    std::string id = storefront::db::newId(), slug = unique("evil"), at = "2031-01-01T00:00:00.000Z";
    std::string name = "Cable </script><script>alert(1)</script> \"quoted\" & <b>bold</b>";
    std::string description = "<p>Fine</p><script>alert(2)</script>";
    auto s = e.db->session();
    s << e.db->sql("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, "
                   "track_inventory, show_pricing, price_nzd, created_at, updated_at) "
                   "VALUES (?, ?, ?, ?, 'physical', '/x.svg', '[\"</script>\"]', TRUE, FALSE, TRUE, 100, ?, ?)"),
        use(id), use(slug), use(name), use(description), use(at), use(at), now;
    auto r = get("/product/" + slug);
    ASSERT_EQ(r.status, 200);
    EXPECT_FALSE(contains(r.body, "<script>alert(1)"));
    EXPECT_FALSE(contains(r.body, "</script><script>"));
    auto data = initialData(r.body);
    EXPECT_EQ(data["product"]["name"], name); // the data survives intact
    auto api = getJson("/api/v1/products/" + slug).json()["product"];
    EXPECT_EQ(api["description"], "<p>Fine</p>"); // sanitised on the way out
    auto landing = get("/");
    EXPECT_FALSE(contains(landing.body, "<script>alert(1)"));
    s << e.db->sql("UPDATE products SET is_active = FALSE WHERE id = ?"), use(id), now;
}

TEST(Pages, AppRoutesGetTheShellAndUnknownRoutesA404Shell) {
    for (const std::string& path : std::vector<std::string>{"/terms", "/privacy", "/dashboard", "/checkout/hhtraff", "/admin/products"}) {
        auto r = get(path);
        EXPECT_EQ(r.status, 200) << path;
        EXPECT_TRUE(contains(r.body, "<div id=\"root\">")) << path;
    }
    EXPECT_TRUE(contains(get("/dashboard").body, "noindex"));
    EXPECT_TRUE(contains(get("/terms").body, "<link rel=\"canonical\" href=\"https://shop.signalcraft.test/terms\""));
    auto missing = get("/no/such/page");
    EXPECT_EQ(missing.status, 404);
    EXPECT_TRUE(contains(missing.body, "<div id=\"root\">"));
}

TEST(Pages, APageTheBuildWroteWholeIsSentAsItsOwnHtmlWithTheManifestsHead) {
    for (const char* path : {"/terms", "/terms/"}) {
        auto r = get(path);
        ASSERT_EQ(r.status, 200) << path;
        EXPECT_TRUE(contains(r.body, "<div data-static-page=\"/terms\"><h1>Terms and Conditions</h1></div>")) << path;
        EXPECT_TRUE(contains(r.body, "<title>Terms and Conditions | Signalcraft</title>")) << path;
        EXPECT_TRUE(contains(r.body, "<meta name=\"description\" content=\"The terms that apply when you buy app subscriptions"))
            << path;
        EXPECT_TRUE(contains(r.body, "<script id=\"initial-data\" type=\"application/json\">{\"page\":\"app\"}</script>")) << path;
    }
    // Without a page of its own in the build, a page gets index.html; its description is the manifest's.
    auto privacy = get("/privacy");
    EXPECT_FALSE(contains(privacy.body, "data-static-page"));
    EXPECT_TRUE(contains(privacy.body, "<meta name=\"description\" content=\"How Signalcraft Limited collects"));
    EXPECT_FALSE(contains(get("/dashboard").body, "data-static-page"));
    // The templates themselves are not files to download.
    EXPECT_EQ(get("/pages/terms.html").status, 404);
    EXPECT_EQ(get("/index.html").status, 404);
}

TEST(StaticFiles, HashedAssetsAreImmutableAndPrecompressed) {
    auto plain = get("/assets/app-3f2a1b.js");
    ASSERT_EQ(plain.status, 200);
    EXPECT_EQ(plain.body, "console.log('identity');\n");
    EXPECT_EQ(plain.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(plain.header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(plain.header("vary"), "Accept-Encoding");
    auto br = get("/assets/app-3f2a1b.js", {{"Accept-Encoding", "gzip, deflate, br"}});
    EXPECT_EQ(br.header("content-encoding"), "br");
    EXPECT_EQ(br.body, "BROTLI-BYTES");
    auto gz = get("/assets/app-3f2a1b.js", {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(gz.header("content-encoding"), "gzip");
    EXPECT_EQ(gz.body, "GZIP-BYTES");
}

TEST(StaticFiles, EtagRevalidationAnswers304) {
    auto first = get("/products/hit/hit-interface.svg");
    ASSERT_EQ(first.status, 200);
    EXPECT_EQ(first.header("cache-control"), "no-cache");
    auto etag = first.header("etag");
    ASSERT_FALSE(etag.empty());
    auto second = get("/products/hit/hit-interface.svg", {{"If-None-Match", etag}});
    EXPECT_EQ(second.status, 304);
    EXPECT_TRUE(second.body.empty());
    EXPECT_EQ(get("/products/hit/hit-interface.svg", {{"If-None-Match", "\"other\""}}).status, 200);
}

TEST(StaticFiles, MissingFilesAndTraversalAre404) {
    EXPECT_EQ(get("/assets/missing-123.js").status, 404);
    EXPECT_EQ(get("/favicon-that-does-not-exist.ico").status, 404);
    EXPECT_EQ(get("/../../etc/passwd").status, 404);
    EXPECT_EQ(get("/products/%2e%2e/%2e%2e/index.html").status, 404);
}

TEST(Seo, SitemapListsActiveProductsAndRobotsPointsToIt) {
    auto sitemap = get("/sitemap.xml");
    ASSERT_EQ(sitemap.status, 200);
    EXPECT_TRUE(contains(sitemap.header("content-type"), "xml"));
    EXPECT_TRUE(contains(sitemap.body, "<loc>https://shop.signalcraft.test/product/hhtraff</loc>"));
    EXPECT_TRUE(contains(sitemap.body, "<loc>https://shop.signalcraft.test/product/hit-rs485-interface</loc>"));
    auto robots = get("/robots.txt");
    ASSERT_EQ(robots.status, 200);
    EXPECT_TRUE(contains(robots.body, "Sitemap: https://shop.signalcraft.test/sitemap.xml"));
    EXPECT_TRUE(contains(robots.body, "Disallow: /admin"));
}

TEST(SecurityHeaders, OnPagesAssetsAndErrors) {
    for (const std::string& path : std::vector<std::string>{"/", "/assets/app-3f2a1b.js", "/api/v1/nope", "/product/none"}) {
        auto r = get(path);
        auto csp = r.header("content-security-policy");
        EXPECT_TRUE(contains(csp, "script-src 'self'")) << path;
        EXPECT_FALSE(contains(csp, "unsafe-inline")) << path;
        EXPECT_TRUE(contains(csp, "frame-ancestors 'none'")) << path;
        EXPECT_EQ(r.header("x-content-type-options"), "nosniff") << path;
        EXPECT_EQ(r.header("referrer-policy"), "strict-origin-when-cross-origin") << path;
    }
}

#include "seo/sitemap.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using storefront::catalog::Product;
using storefront::seo::robotsTxt;
using storefront::seo::SiteInfo;
using storefront::seo::sitemapXml;

SiteInfo site() {
    SiteInfo s;
    s.publicUrl = "https://signalcraft.co.nz";
    return s;
}

Product product(std::string slug, std::string createdAt, bool active = true) {
    Product p;
    p.slug = std::move(slug);
    p.name = p.slug;
    p.createdAt = std::move(createdAt);
    p.isActive = active;
    return p;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

TEST(Sitemap, ListsStaticPagesAndActiveProducts) {
    const std::string xml = sitemapXml(site(), {product("hhtraff", "2025-09-01T00:00:00.000Z"),
                                                product("old", "2024-01-01T00:00:00.000Z", false),
                                                product("usb-cable", "2025-10-01T09:00:00.000Z")});
    EXPECT_EQ(xml,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
              "  <url>\n    <loc>https://signalcraft.co.nz/</loc>\n  </url>\n"
              "  <url>\n    <loc>https://signalcraft.co.nz/terms</loc>\n  </url>\n"
              "  <url>\n    <loc>https://signalcraft.co.nz/privacy</loc>\n  </url>\n"
              "  <url>\n    <loc>https://signalcraft.co.nz/product/hhtraff</loc>\n"
              "    <lastmod>2025-09-01</lastmod>\n  </url>\n"
              "  <url>\n    <loc>https://signalcraft.co.nz/product/usb-cable</loc>\n"
              "    <lastmod>2025-10-01</lastmod>\n  </url>\n"
              "</urlset>\n");
}

TEST(Sitemap, EmptyCatalogueStillListsStaticPages) {
    const std::string xml = sitemapXml(site(), {});
    EXPECT_EQ(count(xml, "<url>"), 3u);
    EXPECT_EQ(count(xml, "</url>"), 3u);
}

TEST(Sitemap, LastmodOnlyForAWellFormedDate) {
    for (const char* bad : {"", "yesterday", "2025-9-01T00:00:00Z", "2025-09-01X", "20250901"}) {
        const std::string xml = sitemapXml(site(), {product("p", bad)});
        EXPECT_EQ(xml.find("<lastmod>"), std::string::npos) << bad;
        EXPECT_NE(xml.find("/product/p</loc>"), std::string::npos);
    }
    EXPECT_NE(sitemapXml(site(), {product("p", "2025-09-01")}).find("<lastmod>2025-09-01</lastmod>"), std::string::npos);
    EXPECT_NE(sitemapXml(site(), {product("p", "2025-09-01 10:00:00")}).find("<lastmod>2025-09-01</lastmod>"),
              std::string::npos);
}

TEST(Sitemap, UrlsAreEncodedAndEscaped) {
    SiteInfo s = site();
    s.publicUrl = "https://example.com/shop?a=1&b='2'/";
    const std::string xml = sitemapXml(s, {product("a b&<c>", "2025-01-01T00:00:00Z")});
    EXPECT_NE(xml.find("<loc>https://example.com/shop?a=1&amp;b=&#39;2&#39;/product/a%20b%26%3Cc%3E</loc>"),
              std::string::npos)
        << xml;
    EXPECT_EQ(xml.find("&b"), std::string::npos);
    EXPECT_EQ(xml.find("<c>"), std::string::npos);
}

TEST(RobotsTxt, AllowsPublicPagesAndNamesTheSitemap) {
    EXPECT_EQ(robotsTxt(site()),
              "User-agent: *\n"
              "Allow: /\n"
              "Disallow: /admin\n"
              "Disallow: /dashboard\n"
              "Disallow: /checkout\n"
              "Disallow: /enterprise\n"
              "Disallow: /test-subscription\n"
              "Disallow: /api/\n"
              "Disallow: /auth/\n"
              "Disallow: /functions/\n"
              "Disallow: /webhooks/\n"
              "\n"
              "Sitemap: https://signalcraft.co.nz/sitemap.xml\n");
}

TEST(RobotsTxt, SitemapUrlIgnoresATrailingSlash) {
    SiteInfo s = site();
    s.publicUrl = "https://signalcraft.co.nz/";
    EXPECT_NE(robotsTxt(s).find("Sitemap: https://signalcraft.co.nz/sitemap.xml\n"), std::string::npos);
}

} // namespace

#include "seo/head.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "seo/text.h"

namespace {

using nlohmann::json;
using storefront::catalog::PricingPlan;
using storefront::catalog::Product;
using namespace storefront::seo;

SiteInfo site() {
    SiteInfo s;
    s.publicUrl = "https://signalcraft.co.nz";
    s.defaultImagePath = "/og/signalcraft.png";
    return s;
}

Product physical() {
    Product p;
    p.id = "6f1c0a52-1b0e-4a57-9d57-3c5ad0f8e001";
    p.slug = "usb-cable";
    p.name = "USB Serial Cable";
    p.description = "<p>Short description.</p>";
    p.descriptionDetail = "<h2>USB to RS-232</h2><p>A rugged <strong>FTDI</strong> cable.</p>";
    p.metaKeywords = "usb, serial, RS-232";
    p.type = "physical";
    p.iconUrl = "/products/usb-cable/icon.svg";
    p.pictureUrl = "/products/usb-cable/cable.jpg";
    p.trackInventory = true;
    p.stockQuantity = 4;
    p.priceNzd = 4900;
    p.actionType = "checkout";
    p.createdAt = "2025-10-01T09:00:00.000Z";
    return p;
}

PricingPlan plan(std::string name, std::int64_t amount, std::string currency, int value, std::string unit) {
    PricingPlan pl;
    pl.id = name + "-id";
    pl.name = std::move(name);
    pl.priceAmount = amount;
    pl.currency = std::move(currency);
    pl.billingFrequencyValue = value;
    pl.billingFrequencyUnit = std::move(unit);
    return pl;
}

Product subscription() {
    Product p;
    p.id = "6f1c0a52-1b0e-4a57-9d57-3c5ad0f8e002";
    p.slug = "hhtraff";
    p.name = "HHTraff Terminal";
    p.description = "<p>Traffic controller terminal for Android.</p>";
    p.metaKeywords = "traffic, Serial, terminal";
    p.type = "subscription";
    p.iconUrl = "/products/hhtraff/hhtraff-icon.svg";
    p.billingInterval = "month";
    p.createdAt = "2025-09-01T00:00:00.000Z";
    return p;
}

// The parsed content of the (single) JSON-LD block.
json jsonLd(const std::string& head) {
    const std::string open = "<script type=\"application/ld+json\">";
    const std::size_t start = head.find(open);
    EXPECT_NE(start, std::string::npos);
    if (start == std::string::npos) return nullptr;
    EXPECT_EQ(head.find(open, start + 1), std::string::npos) << "one JSON-LD block";
    const std::size_t end = head.find("</script>", start);
    return json::parse(head.substr(start + open.size(), end - start - open.size()));
}

// The raw (escaped) content attribute of <meta name|property="key">, or "<missing>".
std::string meta(const std::string& head, const std::string& attr, const std::string& key) {
    const std::string open = "<meta " + attr + "=\"" + key + "\" content=\"";
    const std::size_t start = head.find(open);
    if (start == std::string::npos) return "<missing>";
    const std::size_t end = head.find('"', start + open.size());
    return head.substr(start + open.size(), end - start - open.size());
}

std::string between(const std::string& s, const std::string& open, const std::string& close) {
    const std::size_t a = s.find(open);
    if (a == std::string::npos) return "<missing>";
    const std::size_t b = s.find(close, a + open.size());
    return s.substr(a + open.size(), b - a - open.size());
}

std::size_t codePoints(const std::string& s) {
    std::size_t n = 0;
    for (const char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    return n;
}

// Every line is exactly one tag.
void expectOneTagPerLine(const std::string& head) {
    ASSERT_FALSE(head.empty());
    EXPECT_EQ(head.back(), '\n');
    std::size_t start = 0;
    while (start < head.size()) {
        const std::size_t end = head.find('\n', start);
        const std::string line = head.substr(start, end - start);
        EXPECT_EQ(line.front(), '<') << line;
        EXPECT_EQ(line.back(), '>') << line;
        start = end + 1;
    }
}

// Every URL in href= or a URL-valued meta tag is absolute on the public URL.
void expectUrlsOnPublicUrl(const std::string& head, const std::string& publicUrl) {
    for (std::size_t at = head.find("href=\""); at != std::string::npos; at = head.find("href=\"", at + 1))
        EXPECT_EQ(head.compare(at + 6, publicUrl.size(), publicUrl), 0) << head.substr(at, 80);
    for (const char* key : {"og:url", "og:image"}) {
        const std::string v = meta(head, "property", key);
        if (v != "<missing>") {
            EXPECT_EQ(v.rfind(publicUrl, 0), 0u) << key << " = " << v;
        }
    }
}

// --- landing ------------------------------------------------------------------------------------------

TEST(LandingHead, HasTheStandardTags) {
    const std::vector<Product> products = {subscription(), physical()};
    const std::string head = landingHead(site(), products);
    expectOneTagPerLine(head);
    EXPECT_NE(head.find("<title>Signalcraft \u2014 Handheld terminal software and serial hardware</title>\n"),
              std::string::npos);
    EXPECT_EQ(meta(head, "name", "description"), escapeHtml(site().defaultDescription));
    EXPECT_LE(codePoints(site().defaultDescription), 160u);
    EXPECT_EQ(meta(head, "name", "robots"), "index, follow");
    EXPECT_NE(head.find("<link rel=\"canonical\" href=\"https://signalcraft.co.nz/\">\n"), std::string::npos);
    EXPECT_EQ(meta(head, "property", "og:type"), "website");
    EXPECT_EQ(meta(head, "property", "og:title"), "Signalcraft \u2014 Handheld terminal software and serial hardware");
    EXPECT_EQ(meta(head, "property", "og:url"), "https://signalcraft.co.nz/");
    EXPECT_EQ(meta(head, "property", "og:site_name"), "Signalcraft");
    EXPECT_EQ(meta(head, "property", "og:image"), "https://signalcraft.co.nz/og/signalcraft.png");
    EXPECT_EQ(meta(head, "property", "og:description"), meta(head, "name", "description"));
    EXPECT_EQ(meta(head, "name", "twitter:card"), "summary_large_image");
    EXPECT_EQ(meta(head, "name", "twitter:title"), meta(head, "property", "og:title"));
    EXPECT_EQ(meta(head, "name", "twitter:description"), meta(head, "name", "description"));
    EXPECT_EQ(meta(head, "name", "twitter:image"), "https://signalcraft.co.nz/og/signalcraft.png");
    expectUrlsOnPublicUrl(head, "https://signalcraft.co.nz/");
}

TEST(LandingHead, KeywordsAreTheDeduplicatedUnionOfProductKeywords) {
    const std::string head = landingHead(site(), {subscription(), physical()});
    EXPECT_EQ(meta(head, "name", "keywords"), "traffic, Serial, terminal, usb, RS-232");
}

TEST(LandingHead, KeywordsAreCapped) {
    Product p = subscription();
    std::string many;
    for (int i = 0; i < 50; ++i) many += "kw" + std::to_string(i) + ",";
    p.metaKeywords = many;
    const std::string keywords = meta(landingHead(site(), {p}), "name", "keywords");
    std::size_t commas = 0;
    for (const char c : keywords) commas += c == ',';
    EXPECT_EQ(commas + 1, 20u);
}

TEST(LandingHead, NoKeywordsTagWithoutKeywords) {
    Product p = physical();
    p.metaKeywords.reset();
    EXPECT_EQ(meta(landingHead(site(), {p}), "name", "keywords"), "<missing>");
}

TEST(LandingHead, JsonLdHasOrganizationAndItemListOfActiveProducts) {
    Product hidden = physical();
    hidden.slug = "hidden";
    hidden.isActive = false;
    const json ld = jsonLd(landingHead(site(), {subscription(), hidden, physical()}));
    EXPECT_EQ(ld["@context"], "https://schema.org");
    ASSERT_EQ(ld["@graph"].size(), 2u);
    const json& org = ld["@graph"][0];
    EXPECT_EQ(org["@type"], "Organization");
    EXPECT_EQ(org["name"], "Signalcraft");
    EXPECT_EQ(org["url"], "https://signalcraft.co.nz/");
    EXPECT_EQ(org["logo"], "https://signalcraft.co.nz/og/signalcraft.png");
    const json& list = ld["@graph"][1];
    EXPECT_EQ(list["@type"], "ItemList");
    ASSERT_EQ(list["itemListElement"].size(), 2u);
    EXPECT_EQ(list["itemListElement"][0]["@type"], "ListItem");
    EXPECT_EQ(list["itemListElement"][0]["position"], 1);
    EXPECT_EQ(list["itemListElement"][0]["name"], "HHTraff Terminal");
    EXPECT_EQ(list["itemListElement"][0]["url"], "https://signalcraft.co.nz/product/hhtraff");
    EXPECT_EQ(list["itemListElement"][1]["position"], 2);
    EXPECT_EQ(list["itemListElement"][1]["url"], "https://signalcraft.co.nz/product/usb-cable");
}

TEST(LandingHead, ImageFallsBackToAProductPicture) {
    SiteInfo s = site();
    s.defaultImagePath.clear();
    const std::string head = landingHead(s, {physical()});
    EXPECT_EQ(meta(head, "property", "og:image"), "https://signalcraft.co.nz/products/usb-cable/cable.jpg");
    EXPECT_FALSE(jsonLd(head)["@graph"][0].contains("logo"));
    EXPECT_EQ(meta(landingHead(s, {}), "name", "twitter:card"), "summary");
    EXPECT_EQ(meta(landingHead(s, {}), "property", "og:image"), "<missing>");
}

TEST(LandingHead, TrailingSlashOnPublicUrlIsTolerated) {
    SiteInfo s = site();
    s.publicUrl = "https://signalcraft.co.nz/";
    const std::string head = landingHead(s, {physical()});
    EXPECT_NE(head.find("href=\"https://signalcraft.co.nz/\""), std::string::npos);
    EXPECT_EQ(head.find("nz//"), std::string::npos);
}

TEST(LandingHead, ProductNamesCannotBreakOutOfJsonLd) {
    Product p = physical();
    p.name = "</script><script>alert(1)</script>";
    const std::string head = landingHead(site(), {p});
    EXPECT_EQ(head.find("<script>alert"), std::string::npos);
    EXPECT_EQ(jsonLd(head)["@graph"][1]["itemListElement"][0]["name"], p.name);
}

// --- product ------------------------------------------------------------------------------------------

TEST(ProductHead, HasTheStandardTags) {
    const std::string head = productHead(site(), physical());
    expectOneTagPerLine(head);
    EXPECT_NE(head.find("<title>USB Serial Cable | Signalcraft</title>\n"), std::string::npos);
    EXPECT_EQ(meta(head, "name", "description"), "USB to RS-232 A rugged FTDI cable.");
    EXPECT_EQ(meta(head, "name", "keywords"), "usb, serial, RS-232");
    EXPECT_EQ(meta(head, "name", "robots"), "index, follow");
    EXPECT_NE(head.find("<link rel=\"canonical\" href=\"https://signalcraft.co.nz/product/usb-cable\">\n"),
              std::string::npos);
    EXPECT_EQ(meta(head, "property", "og:type"), "product");
    EXPECT_EQ(meta(head, "property", "og:title"), "USB Serial Cable | Signalcraft");
    EXPECT_EQ(meta(head, "property", "og:url"), "https://signalcraft.co.nz/product/usb-cable");
    EXPECT_EQ(meta(head, "property", "og:image"), "https://signalcraft.co.nz/products/usb-cable/cable.jpg");
    EXPECT_EQ(meta(head, "property", "og:site_name"), "Signalcraft");
    EXPECT_EQ(meta(head, "property", "product:price:amount"), "49.00");
    EXPECT_EQ(meta(head, "property", "product:price:currency"), "NZD");
    EXPECT_EQ(meta(head, "name", "twitter:card"), "summary_large_image");
    EXPECT_EQ(meta(head, "name", "twitter:image"), "https://signalcraft.co.nz/products/usb-cable/cable.jpg");
    expectUrlsOnPublicUrl(head, "https://signalcraft.co.nz/");
}

TEST(ProductHead, DescriptionFallsBackToTheShortDescription) {
    Product p = physical();
    p.descriptionDetail.reset();
    EXPECT_EQ(meta(productHead(site(), p), "name", "description"), "Short description.");
    p.descriptionDetail = "<p><br></p>"; // Quill's empty editor
    EXPECT_EQ(meta(productHead(site(), p), "name", "description"), "Short description.");
}

TEST(ProductHead, DescriptionIsCutTo160CodePoints) {
    Product p = physical();
    std::string detail = "<p>";
    for (int i = 0; i < 30; ++i) detail += "T\u0101maki Makaurau ";
    p.descriptionDetail = detail + "</p>";
    const std::string head = productHead(site(), p);
    const std::string d = meta(head, "name", "description");
    EXPECT_LE(codePoints(d), 160u);
    EXPECT_EQ(d.substr(d.size() - 3), "\u2026");
    // JSON-LD keeps the longer text.
    EXPECT_GT(codePoints(jsonLd(head)["description"].get<std::string>()), 160u);
}

TEST(ProductHead, ImageFallsBackToIconAndIgnoresUnsafeUrls) {
    Product p = physical();
    p.pictureUrl.reset();
    EXPECT_EQ(meta(productHead(site(), p), "property", "og:image"),
              "https://signalcraft.co.nz/products/usb-cable/icon.svg");
    p.pictureUrl = "javascript:alert(1)";
    EXPECT_EQ(meta(productHead(site(), p), "property", "og:image"),
              "https://signalcraft.co.nz/products/usb-cable/icon.svg");
    p.pictureUrl = "https://cdn.example.com/pic.png";
    EXPECT_EQ(meta(productHead(site(), p), "property", "og:image"), "https://cdn.example.com/pic.png");
}

TEST(ProductHead, SlugIsPercentEncodedInUrls) {
    Product p = physical();
    p.slug = "a b/\"c\"";
    const std::string head = productHead(site(), p);
    EXPECT_EQ(meta(head, "property", "og:url"), "https://signalcraft.co.nz/product/a%20b%2F%22c%22");
    EXPECT_EQ(jsonLd(head)["sku"], "a b/\"c\"");
}

TEST(ProductHead, TitlesWithQuotesAndMarkupAreEscaped) {
    Product p = physical();
    p.name = "Cable \"Pro\" & <b>'Max'</b>";
    const std::string head = productHead(site(), p);
    EXPECT_NE(head.find("<title>Cable &quot;Pro&quot; &amp; &lt;b&gt;&#39;Max&#39;&lt;/b&gt; | Signalcraft</title>"),
              std::string::npos);
    EXPECT_EQ(meta(head, "property", "og:title"),
              "Cable &quot;Pro&quot; &amp; &lt;b&gt;&#39;Max&#39;&lt;/b&gt; | Signalcraft");
    EXPECT_EQ(head.find("<b>"), std::string::npos);
    EXPECT_EQ(jsonLd(head)["name"], p.name);
}

TEST(ProductHead, ScriptInProductFieldsCannotEscapeJsonLd) {
    Product p = physical();
    p.name = "</script><script>alert(1)</script>";
    p.descriptionDetail = "<p>&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p>";
    p.slug = "</script>";
    const std::string head = productHead(site(), p);
    // Exactly the one script element of the JSON-LD block.
    std::size_t scripts = 0;
    for (std::size_t at = head.find("<script"); at != std::string::npos; at = head.find("<script", at + 1)) ++scripts;
    EXPECT_EQ(scripts, 1u);
    std::size_t closes = 0;
    for (std::size_t at = head.find("</script"); at != std::string::npos; at = head.find("</script", at + 1)) ++closes;
    EXPECT_EQ(closes, 1u);
    const json ld = jsonLd(head);
    EXPECT_EQ(ld["name"], p.name);
    EXPECT_EQ(ld["description"], "</script><script>alert(2)</script>");
}

TEST(ProductHead, JsonLdProductFields) {
    const json ld = jsonLd(productHead(site(), physical()));
    EXPECT_EQ(ld["@context"], "https://schema.org");
    EXPECT_EQ(ld["@type"], "Product");
    EXPECT_EQ(ld["name"], "USB Serial Cable");
    EXPECT_EQ(ld["description"], "USB to RS-232 A rugged FTDI cable.");
    EXPECT_EQ(ld["image"], "https://signalcraft.co.nz/products/usb-cable/cable.jpg");
    EXPECT_EQ(ld["sku"], "usb-cable");
    EXPECT_EQ(ld["url"], "https://signalcraft.co.nz/product/usb-cable");
    EXPECT_EQ(ld["brand"], (json{{"@type", "Organization"}, {"name", "Signalcraft"}}));
}

TEST(ProductHead, PhysicalInStockOffer) {
    const json offer = jsonLd(productHead(site(), physical()))["offers"];
    EXPECT_EQ(offer["@type"], "Offer");
    EXPECT_EQ(offer["price"], "49.00");
    EXPECT_EQ(offer["priceCurrency"], "NZD");
    EXPECT_EQ(offer["availability"], "https://schema.org/InStock");
    EXPECT_EQ(offer["url"], "https://signalcraft.co.nz/product/usb-cable");
    EXPECT_EQ(offer["itemCondition"], "https://schema.org/NewCondition");
    EXPECT_EQ(offer["priceSpecification"]["@type"], "PriceSpecification");
    EXPECT_EQ(offer["priceSpecification"]["price"], "49.00");
    EXPECT_EQ(offer["priceSpecification"]["priceCurrency"], "NZD");
    EXPECT_EQ(offer["priceSpecification"]["valueAddedTaxIncluded"], true);
}

TEST(ProductHead, AvailabilityFollowsStock) {
    Product p = physical();
    p.stockQuantity = 0;
    EXPECT_EQ(jsonLd(productHead(site(), p))["offers"]["availability"], "https://schema.org/OutOfStock");
    p.stockQuantity = -3;
    EXPECT_EQ(jsonLd(productHead(site(), p))["offers"]["availability"], "https://schema.org/OutOfStock");
    p.stockQuantity = 1;
    EXPECT_EQ(jsonLd(productHead(site(), p))["offers"]["availability"], "https://schema.org/InStock");
    // Untracked inventory is always in stock, whatever the quantity.
    p.trackInventory = false;
    p.stockQuantity = 0;
    EXPECT_EQ(jsonLd(productHead(site(), p))["offers"]["availability"], "https://schema.org/InStock");
    // Tracked with an unknown quantity is not sold out.
    p.trackInventory = true;
    p.stockQuantity.reset();
    EXPECT_EQ(jsonLd(productHead(site(), p))["offers"]["availability"], "https://schema.org/InStock");
}

TEST(ProductHead, SubscriptionWithSeveralPlansHasAnAggregateOffer) {
    Product p = subscription();
    p.plans = {plan("Monthly", 1500, "NZD", 1, "month"), plan("Annual", 15000, "NZD", 12, "month"),
               plan("Quarterly", 4200, "NZD", 3, "month"), plan("US monthly", 999, "USD", 1, "month"),
               plan("Yearly", 14900, "NZD", 1, "year")};
    const std::string head = productHead(site(), p);
    const json offers = jsonLd(head)["offers"];
    EXPECT_EQ(offers["@type"], "AggregateOffer");
    EXPECT_EQ(offers["priceCurrency"], "NZD");
    EXPECT_EQ(offers["lowPrice"], "15.00");
    EXPECT_EQ(offers["highPrice"], "150.00");
    EXPECT_EQ(offers["offerCount"], 4);
    EXPECT_EQ(offers["availability"], "https://schema.org/InStock");
    ASSERT_EQ(offers["offers"].size(), 4u);
    const json& annual = offers["offers"][1];
    EXPECT_EQ(annual["@type"], "Offer");
    EXPECT_EQ(annual["name"], "Annual");
    EXPECT_EQ(annual["price"], "150.00");
    EXPECT_EQ(annual["priceSpecification"]["@type"], "UnitPriceSpecification");
    EXPECT_EQ(annual["priceSpecification"]["billingDuration"], "P12M");
    EXPECT_EQ(annual["priceSpecification"]["valueAddedTaxIncluded"], true);
    EXPECT_EQ(offers["offers"][3]["priceSpecification"]["billingDuration"], "P1Y");
    for (const json& o : offers["offers"]) EXPECT_EQ(o["priceCurrency"], "NZD");
    EXPECT_EQ(meta(head, "property", "product:price:amount"), "15.00");
}

TEST(ProductHead, SubscriptionWithOneNzdPlanHasAnOffer) {
    Product p = subscription();
    p.plans = {plan("Pro", 600, "NZD", 1, "month"), plan("Pro AU", 550, "AUD", 1, "month")};
    const json offer = jsonLd(productHead(site(), p))["offers"];
    EXPECT_EQ(offer["@type"], "Offer");
    EXPECT_EQ(offer["name"], "Pro");
    EXPECT_EQ(offer["price"], "6.00");
    EXPECT_EQ(offer["priceSpecification"]["billingDuration"], "P1M");
    EXPECT_EQ(offer["availability"], "https://schema.org/InStock");
}

TEST(ProductHead, SubscriptionWithoutNzdPlansFallsBackToPriceNzd) {
    Product p = subscription();
    p.priceNzd = 4900;
    p.plans = {plan("US", 999, "USD", 1, "month")};
    const json offer = jsonLd(productHead(site(), p))["offers"];
    EXPECT_EQ(offer["@type"], "Offer");
    EXPECT_EQ(offer["price"], "49.00");
    EXPECT_EQ(offer["priceSpecification"]["billingDuration"], "P1M");
    EXPECT_EQ(offer["priceSpecification"]["valueAddedTaxIncluded"], true);
    EXPECT_FALSE(offer.contains("itemCondition"));
}

TEST(ProductHead, NoOffersWithoutAPriceOrWhenComingSoon) {
    Product p = subscription(); // price_nzd 0, no plans
    std::string head = productHead(site(), p);
    EXPECT_FALSE(jsonLd(head).contains("offers"));
    EXPECT_EQ(meta(head, "property", "product:price:amount"), "<missing>");
    Product soon = physical();
    soon.actionType = "none";
    EXPECT_FALSE(jsonLd(productHead(site(), soon)).contains("offers"));
}

// --- other pages ----------------------------------------------------------------------------------------

TEST(NotFoundHead, IsNoindexWithTitle) {
    const std::string head = notFoundHead(site());
    expectOneTagPerLine(head);
    EXPECT_NE(head.find("<title>Product Not Found | Signalcraft</title>"), std::string::npos);
    EXPECT_EQ(meta(head, "name", "robots"), "noindex");
    EXPECT_EQ(head.find("canonical"), std::string::npos);
    EXPECT_EQ(head.find("ld+json"), std::string::npos);
}

TEST(DefaultHead, AppendsTheSiteNameOnce) {
    EXPECT_NE(defaultHead(site(), "Terms and Conditions", true).find("<title>Terms and Conditions | Signalcraft</title>"),
              std::string::npos);
    EXPECT_NE(defaultHead(site(), "Privacy Policy | Signalcraft", true).find("<title>Privacy Policy | Signalcraft</title>"),
              std::string::npos);
    EXPECT_NE(defaultHead(site(), "", false).find("<title>Signalcraft \u2014 Handheld"), std::string::npos);
}

TEST(DefaultHead, IndexedPagesHaveCanonicalAndSocialTags) {
    const std::string head = defaultHead(site(), "Terms and Conditions", true, "/terms");
    expectOneTagPerLine(head);
    EXPECT_EQ(meta(head, "name", "robots"), "index, follow");
    EXPECT_NE(head.find("<link rel=\"canonical\" href=\"https://signalcraft.co.nz/terms\">"), std::string::npos);
    EXPECT_EQ(meta(head, "property", "og:url"), "https://signalcraft.co.nz/terms");
    EXPECT_EQ(meta(head, "property", "og:title"), "Terms and Conditions | Signalcraft");
}

TEST(DefaultHead, NoindexPagesHaveNoSocialTags) {
    const std::string head = defaultHead(site(), "Dashboard", false, "/dashboard");
    expectOneTagPerLine(head);
    EXPECT_EQ(meta(head, "name", "robots"), "noindex");
    EXPECT_EQ(head.find("og:"), std::string::npos);
    EXPECT_EQ(head.find("canonical"), std::string::npos);
}

TEST(DefaultHead, TitleIsEscaped) {
    EXPECT_NE(defaultHead(site(), "<script>\"x\"", false).find("<title>&lt;script&gt;&quot;x&quot; | Signalcraft</title>"),
              std::string::npos);
}

TEST(AppRouteHead, MapsRoutesToTitlesAndRobots) {
    const SiteInfo s = site();
    EXPECT_NE(appRouteHead(s, "/terms").find("<title>Terms and Conditions | Signalcraft</title>"), std::string::npos);
    EXPECT_EQ(meta(appRouteHead(s, "/terms"), "name", "robots"), "index, follow");
    EXPECT_NE(appRouteHead(s, "/privacy/?x=1").find("href=\"https://signalcraft.co.nz/privacy\""), std::string::npos);
    for (const char* path : {"/dashboard", "/enterprise", "/test-subscription", "/checkout/hhtraff", "/admin",
                             "/admin/wirewrite/users", "/somewhere"}) {
        EXPECT_EQ(meta(appRouteHead(s, path), "name", "robots"), "noindex") << path;
    }
    EXPECT_NE(appRouteHead(s, "/admin/products").find("<title>Admin | Signalcraft</title>"), std::string::npos);
    EXPECT_NE(appRouteHead(s, "/administrator").find("<title>Signalcraft \u2014"), std::string::npos);
}

TEST(AppRouteHead, ThePagesDescriptionFromTheManifestElseTheSites) {
    const SiteInfo s = site();
    const auto terms = appRouteHead(s, "/terms");
    EXPECT_TRUE(meta(terms, "name", "description").starts_with("The terms that apply when you buy app subscriptions"));
    EXPECT_EQ(meta(terms, "property", "og:description"), meta(terms, "name", "description"));
    EXPECT_TRUE(meta(appRouteHead(s, "/privacy"), "name", "description").starts_with("How Signalcraft Limited collects"));
    EXPECT_EQ(meta(appRouteHead(s, "/signup"), "name", "description"), s.defaultDescription);
    EXPECT_EQ(meta(defaultHead(s, "X", true, "/x", "Own <words>"), "name", "description"), "Own &lt;words&gt;");
}

TEST(AbsoluteUrl, JoinsPathsToThePublicUrl) {
    const SiteInfo s = site();
    EXPECT_EQ(absoluteUrl(s, "/a/b.png"), "https://signalcraft.co.nz/a/b.png");
    EXPECT_EQ(absoluteUrl(s, "a/b.png"), "https://signalcraft.co.nz/a/b.png");
    EXPECT_EQ(absoluteUrl(s, "/a b/\u0101.png"), "https://signalcraft.co.nz/a%20b/%C4%81.png");
    EXPECT_EQ(absoluteUrl(s, "https://cdn.example.com/x.png"), "https://cdn.example.com/x.png");
    EXPECT_EQ(absoluteUrl(s, "//cdn.example.com/x.png"), "https://cdn.example.com/x.png");
    EXPECT_EQ(absoluteUrl(s, "javascript:alert(1)"), "");
    EXPECT_EQ(absoluteUrl(s, "data:image/png;base64,xx"), "");
    EXPECT_EQ(absoluteUrl(s, ""), "");
    EXPECT_EQ(productUrl(s, "hhtraff"), "https://signalcraft.co.nz/product/hhtraff");
}

// --- renderShell -------------------------------------------------------------------------------------------

const std::string kTemplate =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n<!--app-head-->\n"
    "<script type=\"module\" src=\"/assets/index.js\"></script>\n</head>\n<body>\n<div id=\"root\"></div>\n"
    "<!--app-data-->\n</body>\n</html>\n";

TEST(RenderShell, ReplacesBothMarkers) {
    const std::string out = renderShell(kTemplate, "<title>T</title>\n", {{"page", "app"}});
    EXPECT_EQ(out,
              "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n<title>T</title>\n\n"
              "<script type=\"module\" src=\"/assets/index.js\"></script>\n</head>\n<body>\n<div id=\"root\"></div>\n"
              "<script id=\"initial-data\" type=\"application/json\">{\"page\":\"app\"}</script>\n</body>\n</html>\n");
}

TEST(RenderShell, InsertsBeforeHeadAndBodyEndWhenMarkersAreMissing) {
    const std::string tpl = "<html><HEAD><meta charset=\"UTF-8\"></HEAD><body><div id=\"root\"></div></BODY></html>";
    const std::string out = renderShell(tpl, "<title>T</title>", {{"page", "landing"}});
    EXPECT_EQ(out, "<html><HEAD><meta charset=\"UTF-8\"><title>T</title></HEAD><body><div id=\"root\"></div>"
                   "<script id=\"initial-data\" type=\"application/json\">{\"page\":\"landing\"}</script></BODY></html>");
}

TEST(RenderShell, OneMarkerPresentOneMissing) {
    const std::string tpl = "<head><!--app-head--></head><body></body>";
    EXPECT_EQ(renderShell(tpl, "H", {{"a", 1}}),
              "<head>H</head><body><script id=\"initial-data\" type=\"application/json\">{\"a\":1}</script></body>");
    const std::string tpl2 = "<head></head><body><!--app-data--></body>";
    EXPECT_EQ(renderShell(tpl2, "H", json::object()),
              "<head>H</head><body><script id=\"initial-data\" type=\"application/json\">{}</script></body>");
}

TEST(RenderShell, AppendsWhenNeitherMarkerNorTagExists) {
    EXPECT_EQ(renderShell("<p>x</p>", "H", nullptr),
              "<p>x</p>H<script id=\"initial-data\" type=\"application/json\">null</script>");
}

TEST(RenderShell, InitialDataCannotCloseTheScript) {
    const json data = {{"page", "product"},
                       {"product", {{"name", "</script><script>alert(1)</script>"}, {"d", "<!--"}, {"s", "\u2028"}}}};
    const std::string out = renderShell(kTemplate, "", data);
    const std::string open = "<script id=\"initial-data\" type=\"application/json\">";
    const std::string body = between(out, open, "</script>");
    EXPECT_EQ(json::parse(body), data) << "the first </script> after the block's start is its own end";
    EXPECT_EQ(out.find("<script>alert"), std::string::npos);
    EXPECT_EQ(out.find("<!--", out.find(open)), std::string::npos);
}

TEST(RenderShell, InsertedContentIsNeverTakenForAMarker) {
    const std::string out = renderShell(kTemplate, "<meta name=\"x\" content=\"<!--app-data-->\">", {{"page", "app"}});
    EXPECT_NE(out.find("content=\"<!--app-data-->\""), std::string::npos);
    EXPECT_NE(out.find("{\"page\":\"app\"}</script>\n</body>"), std::string::npos);
}

TEST(RenderShell, MarkersInUnusualOrder) {
    const std::string tpl = "<!--app-data--><!--app-head-->";
    EXPECT_EQ(renderShell(tpl, "H", 1), "<script id=\"initial-data\" type=\"application/json\">1</script>H");
}

TEST(RenderShell, FullPageForAProduct) {
    const Product p = physical();
    const std::string out = renderShell(kTemplate, productHead(site(), p), {{"page", "product"}, {"product", p.name}});
    EXPECT_NE(out.find("<title>USB Serial Cable | Signalcraft</title>"), std::string::npos);
    EXPECT_EQ(out.find("<!--app-head-->"), std::string::npos);
    EXPECT_EQ(out.find("<!--app-data-->"), std::string::npos);
    EXPECT_LT(out.find("application/ld+json"), out.find("</head>"));
    EXPECT_GT(out.find("initial-data"), out.find("<body>"));
}

} // namespace

TEST(AppRoutes, TheSpecsRouteTableAndNothingElse) {
    using storefront::seo::isAppRoute;
    for (const char* path : {"/terms", "/privacy/", "/dashboard", "/enterprise", "/test-subscription", "/checkout/hhtraff",
                             "/admin", "/admin/products", "/admin/wirewrite/promo-codes", "/admin/mfa"})
        EXPECT_TRUE(isAppRoute(path)) << path;
    for (const char* path : {"/", "/checkout/", "/checkout", "/termsx", "/dashboard/extra", "/administrator", "/no/such/page"})
        EXPECT_FALSE(isAppRoute(path)) << path;
}

// The server's app routes are the web app's page manifest (web/src/app/pages.json): every page
// listed there is answered as an app route with its head title, and nothing else is.
TEST(SeoHead, AppRoutesComeFromTheWebAppsPageManifest) {
    using storefront::seo::appRouteHead;
    using storefront::seo::isAppRoute;
    const auto manifest = nlohmann::json::parse(storefront::seo::pageManifestJson());
    SiteInfo s;
    s.publicUrl = "https://signalcraft.co.nz";
    ASSERT_GE(manifest.at("pages").size(), 10u);
    for (const auto& page : manifest.at("pages")) {
        std::string path = page.at("path");
        if (auto colon = path.find(':'); colon != std::string::npos) path = path.substr(0, colon) + "some-value";
        EXPECT_TRUE(isAppRoute(path)) << path;
        const std::string title = page.value("headTitle", page.at("title").get<std::string>());
        EXPECT_NE(appRouteHead(s, path).find("<title>" + title + " | Signalcraft</title>"), std::string::npos) << path;
        EXPECT_EQ(meta(appRouteHead(s, path), "name", "robots"), page.at("index").get<bool>() ? "index, follow" : "noindex") << path;
        // Two more segments match no page (one more could: /admin/orders and /admin/orders/:id).
        EXPECT_FALSE(isAppRoute(path + "/no-such/page")) << path;
    }
}

TEST(TestPaymentsRibbon, GoesJustBeforeTheAppsRootElseJustAfterBody) {
    const std::string ribbon = "<div role=\"note\" aria-label=\"Test payments\"";
    const auto withRoot = withTestPaymentsRibbon("<html><body class=\"x\"><p>a</p><div id=\"root\"><b>shell</b></div></body></html>");
    EXPECT_NE(withRoot.find("<p>a</p>" + ribbon), std::string::npos) << withRoot;
    EXPECT_NE(withRoot.find("real money is taken.</div><div id=\"root\"><b>shell</b></div>"), std::string::npos) << withRoot;
    const auto noRoot = withTestPaymentsRibbon("<html><BODY class=\"x\"><main>m</main></BODY></html>");
    EXPECT_NE(noRoot.find("<BODY class=\"x\">" + ribbon), std::string::npos) << noRoot;
    EXPECT_NE(withTestPaymentsRibbon("plain").find(ribbon), std::string::npos); // neither: at the start
    EXPECT_EQ(withTestPaymentsRibbon("plain").rfind("plain"), withTestPaymentsRibbon("plain").size() - 5);
}

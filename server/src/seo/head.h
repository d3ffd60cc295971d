#pragma once
// The server-rendered <head> of the single-page app's HTML shell (docs/architecture.md, "Server-
// rendered shell"): title, description, keywords, robots, canonical, Open Graph, Twitter and JSON-LD.
// Every value is HTML-escaped, JSON-LD goes through jsonForScript, every tag is on its own line, and
// every URL is absolute from SiteInfo::publicUrl (never from a request's Host header).
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/product.h"

namespace storefront::seo {

struct SiteInfo {
    std::string publicUrl; // e.g. https://signalcraft.co.nz (a trailing slash is tolerated)
    std::string siteName = "Signalcraft";
    std::string defaultTitle = "Signalcraft \u2014 Handheld terminal software and serial hardware";
    std::string defaultDescription =
        "Industrial handheld terminal software for technicians working with traffic control systems "
        "and serial equipment: Bluetooth, USB, RS-232, RS-422 and RS-485.";
    std::string defaultImagePath; // site-relative ("/og-image.png") or absolute; empty = none
    // STOREFRONT_ALLOW_TEST_PAYMENTS: every page carries the TEST PAYMENTS ribbon (withTestPaymentsRibbon).
    bool testPayments = false;
};

// Landing page (/): default title and description, keywords (union of the products' meta_keywords,
// at most 20), canonical publicUrl + "/", Open Graph "website", Twitter card, and JSON-LD @graph of
// an Organization and an ItemList of the active products (position, name, url). og:image is
// defaultImagePath, else the first product's picture or icon.
std::string landingHead(const SiteInfo& site, const std::vector<catalog::Product>& products);

// Product detail (/product/{slug}) for an active product (use notFoundHead for missing or inactive
// ones): "<name> | <siteName>", description = metaDescription(description_detail, else description),
// keywords from meta_keywords, canonical publicUrl + "/product/" + percent-encoded slug, Open Graph
// "product" with price tags, Twitter card, and JSON-LD Product (name, description, image, sku = slug,
// url, brand) with offers:
//   * physical: Offer at price_nzd;
//   * subscription with several NZD plans: AggregateOffer (lowPrice, highPrice, offerCount) holding
//     one Offer per NZD plan; with one NZD plan: an Offer for it; with none: an Offer at price_nzd;
//   * prices are decimal strings ("49.00"), priceCurrency NZD, each Offer's priceSpecification has
//     valueAddedTaxIncluded true (GST) and, for subscriptions, billingDuration ("P1M", "P1Y", ...);
//   * availability OutOfStock when catalog::isSoldOut, else InStock;
//   * no offers at all when action_type is "none" (Coming Soon) or no price is known (no NZD plan and
//     price_nzd <= 0).
std::string productHead(const SiteInfo& site, const catalog::Product& product);

// "Product Not Found | <siteName>" with robots "noindex" (HTTP 404 page).
std::string notFoundHead(const SiteInfo& site);

// Any other app route. `title` is the page's own title ("Terms and Conditions"); " | <siteName>" is
// appended unless it already ends so; empty means SiteInfo::defaultTitle. index=false gives robots
// "noindex" and no social tags. `path` ("/terms"), when given for an indexed page, adds canonical and
// og:url. `description` (plain text) replaces SiteInfo::defaultDescription when not empty.
std::string defaultHead(const SiteInfo& site, std::string_view title, bool index, std::string_view path = {},
                        std::string_view description = {});

// defaultHead for an app route by path, with the manifest's title and description: /terms and
// /privacy are indexed; /dashboard, /enterprise, /test-subscription, /checkout/..., /admin... and
// unknown paths are noindex.
std::string appRouteHead(const SiteInfo& site, std::string_view path);

// The web app's page manifest (web/src/app/pages.json, compiled in): the pages below come from it.
std::string_view pageManifestJson();

// True for the React app's own client-side routes (the server answers them 200 with the shell).
bool isAppRoute(std::string_view path);

// Fills the Vite template: "<!--app-head-->" becomes `head` and "<!--app-data-->" becomes
// <script id="initial-data" type="application/json">jsonForScript(initialData)</script>. A missing
// marker is inserted before </head> (resp. the last </body>), or at the end when that is missing too.
std::string renderShell(std::string_view templateHtml, std::string_view head, const nlohmann::json& initialData);

// The template with the TEST PAYMENTS ribbon (a role="note" strip) just before the app's root
// (<div id="root">), else just after <body>: shown from the first paint on every page, whatever the
// app's script does. web/src/index.css has Tailwind read this file's classes (head.cpp).
std::string withTestPaymentsRibbon(std::string_view templateHtml);

// The absolute form of a site path or URL: http(s) URLs as they are, "//host/x" as https, paths
// joined to publicUrl. Spaces, controls and non-ASCII bytes are percent-encoded. Empty for other
// schemes (javascript:, data:, ...) and for empty input.
std::string absoluteUrl(const SiteInfo& site, std::string_view pathOrUrl);

// publicUrl + "/product/" + slug, the slug percent-encoded (canonical, og:url, sitemap, JSON-LD).
std::string productUrl(const SiteInfo& site, std::string_view slug);

} // namespace storefront::seo

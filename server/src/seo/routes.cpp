#include "seo/routes.h"

#include "catalog/product_json.h"
#include "catalog/slug.h"
#include "http/api_error.h"
#include "seo/sitemap.h"

#include <filesystem>

namespace storefront::seo {

namespace {

// Used when the web app has not been built, so the server still answers something honest.
constexpr const char* kFallbackTemplate =
    "<!doctype html>\n<html lang=\"en-NZ\">\n<head>\n<meta charset=\"utf-8\">\n<!--app-head-->\n</head>\n<body>\n"
    "<main><p>The web app has not been built. Run <code>make build</code>.</p></main>\n<!--app-data-->\n</body>\n</html>\n";

// The web build's HTML templates: index.html, and pages/<path>.html for the pages the build writes
// whole (web/scripts/prerender.mjs). They hold the markers renderShell fills, so they are never
// served as files.
bool isTemplate(const std::string& path) {
    return path == "/index.html" || (path.starts_with("/pages/") && path.ends_with(".html"));
}

} // namespace

PageRoutes::PageRoutes(catalog::ProductRepository& products, const http::StaticFiles& files, http::ResponseCache& cache,
                       SiteInfo site)
    : products_(products), files_(files), cache_(cache), site_(std::move(site)) {
    if (const auto* index = files_.find("/index.html")) template_ = index->identity;
    else template_ = kFallbackTemplate;
    if (site_.testPayments) template_ = withTestPaymentsRibbon(template_);
}

void PageRoutes::registerRoutes(http::Router& router) {
    router.get("/", http::Access::Anyone, [this](http::Request& q, http::Response& r) {
        cache_.serve("page:landing", r, [this, &q](http::Response& out) { landing(q, out); });
    });
    router.get("/product/{slug}", http::Access::Anyone, [this](http::Request& q, http::Response& r) {
        cache_.serve("page:product:" + q.param("slug"), r, [this, &q](http::Response& out) { product(q, out); });
    });
    router.get("/sitemap.xml", http::Access::Anyone, [this](http::Request&, http::Response& r) {
        r.text(200, "application/xml; charset=utf-8", sitemapXml(site_, products_.listActive()));
        r.set("Cache-Control", "public, max-age=3600");
    });
    router.get("/robots.txt", http::Access::Anyone, [this](http::Request&, http::Response& r) {
        r.text(200, "text/plain; charset=utf-8", robotsTxt(site_));
        r.set("Cache-Control", "public, max-age=3600");
    });
    router.fallback([this](http::Request& q, http::Response& r) { fallback(q, r); });
    // The pages from the response cache, the web build from memory, the rest one short read:
    // answered by the event loop itself (http/event_loop.h).
    for (const char* pattern : {"/", "/product/{slug}", "/sitemap.xml", "/robots.txt"}) router.runOnLoop(pattern);
    router.runFallbackOnLoop();
}

std::string PageRoutes::templateFor(std::string_view path) const {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    const auto* page = files_.find("/pages" + std::string(path) + ".html");
    if (!page) return template_;
    return site_.testPayments ? withTestPaymentsRibbon(page->identity) : page->identity;
}

void PageRoutes::shell(http::Response& res, int status, const std::string& head, const nlohmann::json& data,
                       const std::string& html) {
    res.text(status, "text/html; charset=utf-8", renderShell(html.empty() ? template_ : html, head, data));
    res.set("Cache-Control", "no-cache");
}

void PageRoutes::landing(http::Request&, http::Response& res) {
    auto list = products_.listActive();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& p : list) items.push_back(catalog::toJson(p, false));
    shell(res, 200, landingHead(site_, list), {{"page", "landing"}, {"products", std::move(items)}});
}

void PageRoutes::product(http::Request& req, http::Response& res) {
    const auto& slug = req.param("slug");
    std::optional<catalog::Product> found;
    if (catalog::isValidSlug(slug)) found = products_.findActiveBySlug(slug);
    if (!found) {
        shell(res, 404, notFoundHead(site_), {{"page", "product"}, {"product", nullptr}});
        return;
    }
    shell(res, 200, productHead(site_, *found), {{"page", "product"}, {"product", catalog::toJson(*found, true)}});
}

void PageRoutes::fallback(http::Request& req, http::Response& res) {
    const auto& path = req.path();
    if (const auto* asset = files_.find(path); asset && !isTemplate(path)) {
        http::StaticFiles::serve(req, res, *asset);
        return;
    }
    // A missing file (anything with an extension, or under /assets/) is a plain 404, not the app.
    const auto lastSlash = path.rfind('/');
    if (path.starts_with("/assets/") || path.find('.', lastSlash) != std::string::npos)
        throw http::ApiError::notFound("not_found", "No such file.");
    if (isAppRoute(path)) {
        // A page the build wrote whole (/terms, /privacy) is sent as that HTML.
        shell(res, 200, appRouteHead(site_, path), {{"page", "app"}}, templateFor(path));
        return;
    }
    shell(res, 404, defaultHead(site_, "Page Not Found | " + site_.siteName, false), {{"page", "app"}});
}

} // namespace storefront::seo

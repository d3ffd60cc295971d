#include "seo/sitemap.h"

#include "seo/text.h"

#include <string_view>

namespace storefront::seo {
namespace {

// "2026-11-23" from "2026-11-23T09:26:51.000Z", or empty when it does not start with a date.
std::string datePart(std::string_view timestamp) {
    if (timestamp.size() < 10) return {};
    for (std::size_t i = 0; i < 10; ++i) {
        const char c = timestamp[i];
        const bool ok = (i == 4 || i == 7) ? c == '-' : (c >= '0' && c <= '9');
        if (!ok) return {};
    }
    if (timestamp.size() > 10 && timestamp[10] != 'T' && timestamp[10] != ' ') return {};
    return std::string(timestamp.substr(0, 10));
}

void appendUrl(std::string& out, const std::string& loc, const std::string& lastmod) {
    out += "  <url>\n    <loc>" + escapeHtml(loc) /* the five XML entities; &#39; is valid XML */ + "</loc>\n";
    if (!lastmod.empty()) out += "    <lastmod>" + lastmod + "</lastmod>\n";
    out += "  </url>\n";
}

std::string baseUrl(const SiteInfo& site) {
    std::string base = site.publicUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
}

} // namespace

std::string sitemapXml(const SiteInfo& site, const std::vector<catalog::Product>& products) {
    const std::string base = baseUrl(site);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    appendUrl(out, base + "/", {});
    appendUrl(out, base + "/terms", {});
    appendUrl(out, base + "/privacy", {});
    for (const catalog::Product& p : products)
        if (p.isActive) appendUrl(out, productUrl(site, p.slug), datePart(p.createdAt));
    out += "</urlset>\n";
    return out;
}

std::string robotsTxt(const SiteInfo& site) {
    std::string out = "User-agent: *\n"
                      "Allow: /\n";
    for (const char* path : {"/admin", "/dashboard", "/checkout", "/enterprise", "/test-subscription", "/api/",
                             "/auth/", "/functions/", "/webhooks/"}) {
        out += "Disallow: ";
        out += path;
        out += '\n';
    }
    out += "\nSitemap: " + baseUrl(site) + "/sitemap.xml\n";
    return out;
}

} // namespace storefront::seo

#pragma once
// /sitemap.xml and /robots.txt. URLs are absolute from SiteInfo::publicUrl.
#include <string>
#include <vector>

#include "catalog/product.h"
#include "seo/head.h"

namespace storefront::seo {

// sitemaps.org urlset: "/", "/terms", "/privacy", then "/product/{slug}" (slug percent-encoded) for
// each active product in the given order, with <lastmod> = the date part of created_at when it is a
// YYYY-MM-DD date. Values are XML-escaped.
std::string sitemapXml(const SiteInfo& site, const std::vector<catalog::Product>& products);

// Allows everything except the signed-in, admin and API areas (/admin, /dashboard, /checkout,
// /enterprise, /test-subscription, /api/, /auth/, /functions/, /webhooks/) and names the sitemap.
std::string robotsTxt(const SiteInfo& site);

} // namespace storefront::seo

#pragma once
// The HTML side of the server: the SPA shell with a real <head> and the page's initial data for
// "/" and "/product/{slug}", the build's own HTML for the pages it writes whole (/terms, /privacy),
// static files from the web build, sitemap.xml and robots.txt.
#include "catalog/product_repository.h"
#include "http/response_cache.h"
#include "http/router.h"
#include "http/static_files.h"
#include "seo/head.h"

namespace storefront::seo {

class PageRoutes {
public:
    PageRoutes(catalog::ProductRepository& products, const http::StaticFiles& files, http::ResponseCache& cache, SiteInfo site);

    void registerRoutes(http::Router& router);

private:
    void landing(http::Request& req, http::Response& res);
    void product(http::Request& req, http::Response& res);
    void fallback(http::Request& req, http::Response& res);
    // `html`: the template to fill (empty = index.html's).
    void shell(http::Response& res, int status, const std::string& head, const nlohmann::json& data,
               const std::string& html = {});
    // pages/<path>.html of the web build when it has one for `path` (trailing slashes ignored), else
    // index.html's; with the TEST PAYMENTS ribbon when the site takes test payments.
    std::string templateFor(std::string_view path) const;

    catalog::ProductRepository& products_;
    const http::StaticFiles& files_;
    http::ResponseCache& cache_;
    SiteInfo site_;
    std::string template_;
};

} // namespace storefront::seo

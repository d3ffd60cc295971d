#pragma once
// The HTML side of the server: the SPA shell with a real <head> and the page's initial data for
// "/" and "/product/{slug}", static files from the web build, sitemap.xml and robots.txt.
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
    void shell(http::Response& res, int status, const std::string& head, const nlohmann::json& data);

    catalog::ProductRepository& products_;
    const http::StaticFiles& files_;
    http::ResponseCache& cache_;
    SiteInfo site_;
    std::string template_;
};

} // namespace storefront::seo

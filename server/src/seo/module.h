#pragma once
// The HTML side as a module: the SPA shell with real head tags and initial data, static files,
// sitemap.xml and robots.txt (seo/routes.h).
#include "common/module.h"
#include "seo/routes.h"

namespace storefront::seo {

class Module : public storefront::Module {
public:
    Module(catalog::ProductRepository& products, const http::StaticFiles& files, http::ResponseCache& cache, SiteInfo site)
        : pages_(products, files, cache, std::move(site)) {}
    std::string_view name() const override { return "seo"; }
    void routes(http::Router& router) override { pages_.registerRoutes(router); }

private:
    PageRoutes pages_;
};

} // namespace storefront::seo

#include "audit/routes.h"

#include "http/paging.h"

namespace storefront::audit {

// The smallest complete staff list: declared access, paging read by the shared helper, filters
// passed as typed input, one repository call, the shared page shape. Copy it for a new one.
void registerRoutes(http::Router& router, AuditRepository& log) {
    router.get("/api/v1/admin/audit", http::Access::StaffAdmin, [&log](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        LogFilter filter{http::readFilter(req, "actor"), http::readFilter(req, "action"), http::readFilter(req, "target")};
        auto result = log.list(filter, page.size, page.offset());
        nlohmann::json items = nlohmann::json::array();
        for (const auto& entry : result.entries) items.push_back(toJson(entry));
        res.json(200, http::pageJson(std::move(items), result.total, page));
        res.set("Cache-Control", "no-store");
    });
}

} // namespace storefront::audit

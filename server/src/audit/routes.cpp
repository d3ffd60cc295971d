#include "audit/routes.h"

#include "audit/log_entry_json.h"
#include "http/paging.h"

namespace storefront::audit {

// The smallest complete staff list: declared access, paging read by the shared helper, filters
// passed as typed input, one repository call, the shared page shape. Copy it for a new one.
void registerRoutes(http::Router& router, AuditRepository& log) {
    router.get("/api/v1/admin/audit", http::Access::StaffAdmin, [&log](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        LogFilter filter{http::readFilter(req, "actor"), http::readFilter(req, "action"), http::readFilter(req, "target")};
        res.json(200, http::pageJson(log.list(filter, http::pageQuery(page)), page));
    });
}

} // namespace storefront::audit

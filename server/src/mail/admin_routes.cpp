#include "mail/admin_routes.h"

#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

namespace storefront::mail {

void registerAdminRoutes(http::Router& router, OutboxAdmin& admin) {
    using http::Access;

    router.get("/api/v1/admin/mail", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        OutboxFilter filter{http::readChoice(req, "status", {"pending", "sent", "failed"}), http::readSearch(req)};
        res.json(200, http::pageJson(admin.list(filter, http::pageQuery(page)), page));
    });

    router.post("/api/v1/admin/mail/{id}/retry", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = http::idParam(req, "mail_not_found", "No such mail.");
        http::Body body(req); // none is needed: an empty body or {}; anything else is refused
        res.json(200, {{"mail", toJson(admin.retry(actor, id))}});
    });
}

} // namespace storefront::mail

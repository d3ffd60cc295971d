#include "contact/admin_routes.h"

#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

namespace storefront::contact {

void registerAdminRoutes(http::Router& router, EnquiryAdmin& admin) {
    using http::Access;

    router.get("/api/v1/admin/enquiries", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        EnquiryFilter filter;
        if (auto handled = http::readChoice(req, "handled", {"true", "false"})) filter.handled = *handled == "true";
        filter.q = http::readSearch(req);
        res.json(200, http::pageJson(admin.list(filter, http::pageQuery(page)), page));
    });

    router.add("PATCH", "/api/v1/admin/enquiries/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = http::idParam(req, "enquiry_not_found", "No such enquiry.");
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        auto handled = body.optBoolean("handled");
        if (!body.failed("handled") && !handled) body.fail("handled", "This field is required.");
        body.check();
        res.json(200, {{"enquiry", toJson(admin.setHandled(actor, id, *handled))}});
    });
}

} // namespace storefront::contact

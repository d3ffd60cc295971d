#include "billing/admin_routes.h"

#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

#include <Poco/String.h>

using storefront::http::ApiError;

namespace storefront::billing {

namespace {

constexpr std::size_t kMaxNoteChars = 500;

std::string orderId(const http::Request& req) { return http::idParam(req, "order_not_found", "No such order."); }

} // namespace

void registerAdminRoutes(http::Router& router, OrderAdmin& admin) {
    using http::Access;

    router.get("/api/v1/admin/subscriptions", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        auto status = http::readChoice(req, "status", {"active", "pending", "cancelled", "expired", "trialing"});
        const auto search = http::readSearch(req);
        res.json(200, http::pageJson(admin.subscriptions(status, search, http::pageQuery(page)), page));
    });

    router.get("/api/v1/admin/orders", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        AdminOrderFilter filter;
        filter.status =
            http::readChoice(req, "status", {"pending", "paid", "shipped", "completed", "cancelled", "paid_after_cancellation"});
        filter.q = http::readSearch(req);
        res.json(200, http::pageJson(admin.orders(filter, http::pageQuery(page)), page));
    });

    router.get("/api/v1/admin/orders/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        auto order = admin.order(orderId(req));
        if (!order) throw ApiError::notFound("order_not_found", "No such order.");
        res.json(200, {{"order", toJson(*order)}});
    });

    router.add("PATCH", "/api/v1/admin/orders/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = orderId(req);
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        auto status = body.optText("status");
        if (!body.failed("status")) {
            if (!status) body.fail("status", "This field is required.");
            else if (!isOrderStatus(*status)) body.fail("status", "Choose pending, paid, shipped, completed or cancelled.");
        }
        auto note = body.optText("note");
        if (note) {
            *note = Poco::trim(*note);
            if (note->empty()) note.reset();
            else if (common::codePoints(*note) > kMaxNoteChars)
                body.fail("note", "Must be at most " + std::to_string(kMaxNoteChars) + " characters.");
        }
        body.check();
        auto order = admin.changeStatus(actor, id, *status, note);
        res.json(200, {{"order", toJson(order)}});
    });
}

} // namespace storefront::billing

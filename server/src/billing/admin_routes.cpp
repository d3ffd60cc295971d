#include "billing/admin_routes.h"

#include "audit/csv_export.h"
#include "catalog/money.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

#include <Poco/String.h>

#include <algorithm>

using storefront::http::ApiError;

namespace storefront::billing {

namespace {

constexpr std::size_t kMaxNoteChars = 500;
constexpr std::size_t kMaxReasonChars = 500; // Stripe's limit for a metadata value
constexpr std::size_t kMaxBulkOrders = 100; // one page of the list at most twice over
constexpr std::size_t kMaxPaymentReferenceChars = 100;

std::string orderId(const http::Request& req) { return http::idParam(req, "order_not_found", "No such order."); }

// The orders list's filters and search (GET /api/v1/admin/orders and its export).
AdminOrderFilter readOrderFilter(const http::Request& req) {
    AdminOrderFilter filter;
    filter.status =
        http::readChoice(req, "status", {"pending", "paid", "shipped", "completed", "cancelled", "refunded", "paid_after_cancellation"});
    filter.disputed = http::readChoice(req, "disputed", {"true", "false"}) == std::optional<std::string>("true");
    filter.amountMismatch = http::readChoice(req, "amount_mismatch", {"true", "false"}) == std::optional<std::string>("true");
    filter.paymentToReturn = http::readChoice(req, "payment_to_return", {"true", "false"}) == std::optional<std::string>("true");
    filter.toShip = http::readChoice(req, "to_ship", {"true", "false"}) == std::optional<std::string>("true");
    filter.q = http::readSearch(req);
    return filter;
}

// The filters as the audit entry of an export records them (only those given).
// Money in major units ("49.00", the one formatter's digits), its currency in a column of its own.
std::string major(std::int64_t minor) { return catalog::formatMinorUnits(minor); }

const std::vector<std::string> kOrderColumns = {
    "order_number", "created_at", "status", "customer_email", "customer_name", "currency", "total", "refunded",
    "disputed", "amount_mismatch", "paid_after_cancellation", "ship_to_city", "ship_to_country", "carrier", "tracking_number", "shipped_at", "order_id"};

void writeOrder(csv::Writer& out, const AdminOrder& o) {
    const auto& f = o.fulfilment;
    out.text(o.orderNumber).time(audit::instantOf(o.createdAt)).text(o.status).text(o.customerEmail);
    out.text(f.address ? std::optional<std::string>(f.address->name) : std::nullopt);
    out.text(o.currency).number(major(o.totalAmount)).number(major(o.refundedAmount));
    out.boolean(o.disputed).boolean(o.amountMismatch).boolean(o.paidAfterCancellation);
    out.text(f.address ? std::optional<std::string>(f.address->city) : std::nullopt);
    out.text(f.address ? std::optional<std::string>(f.address->country) : std::nullopt);
    out.text(f.carrier).text(f.trackingNumber).time(audit::instantOf(f.shippedAt)).text(o.id);
    out.endRow();
}

// An address object of staff's (`field`: {name, line1, line2?, city, state?, postal_code, country,
// phone?}); its problems as "field.member" messages. nullopt when absent or null, or when invalid.
std::optional<ShippingAddress> readAddress(http::Body& body, const char* field, const std::vector<std::string>& countries) {
    const auto& json = body.json();
    if (!json.contains(field) || json[field].is_null()) return std::nullopt;
    if (!json[field].is_object()) {
        body.fail(field, "Must be an address: name, line1, line2, city, state, postal_code, country and phone.");
        return std::nullopt;
    }
    std::map<std::string, std::string> form;
    for (const auto& [key, value] : json[field].items()) {
        if (value.is_null()) continue;
        if (!value.is_string()) body.fail(std::string(field) + "." + key, "Must be text.");
        else form[key] = value.get<std::string>();
    }
    ShippingAddress address;
    for (const auto& [member, message] : validateAddress(form, countries, address, false))
        body.fail(std::string(field) + "." + member, message);
    if (!body.ok()) return std::nullopt;
    return address;
}

} // namespace

void registerAdminRoutes(http::Router& router, OrderAdmin& admin, std::vector<std::string> shippingCountries) {
    using http::Access;

    router.get("/api/v1/admin/orders/export.csv", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto filter = readOrderFilter(req);
        const auto disputed = http::readFilter(req, "disputed");
        const auto mismatch = http::readFilter(req, "amount_mismatch");
        const auto toShip = http::readFilter(req, "to_ship");
        const auto toReturn = http::readFilter(req, "payment_to_return");
        audit::CsvExport what{"orders",
                              audit::filtersOf({{"status", filter.status}, {"disputed", disputed}, {"amount_mismatch", mismatch},
                                                {"payment_to_return", toReturn}, {"to_ship", toShip}, {"q", filter.q}}),
                              kOrderColumns};
        audit::streamCsv(res, admin.database(), audit::actorOf(req), std::move(what), [&admin, filter](csv::Writer& out) {
            admin.exportOrders(filter, [&out](const AdminOrder& o) { writeOrder(out, o); });
        });
    });

    router.get("/api/v1/admin/orders", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto filter = readOrderFilter(req);
        res.json(200, http::pageJson(admin.orders(filter, http::pageQuery(page)), page));
    });

    router.get("/api/v1/admin/orders/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        auto order = admin.order(orderId(req));
        if (!order) throw ApiError::notFound("order_not_found", "No such order.");
        res.json(200, {{"order", toJson(*order)}});
    });

    router.add("PATCH", "/api/v1/admin/orders/{id}", Access::StaffAdmin, [&admin, shippingCountries](http::Request& req, http::Response& res) {
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
        // Marking as shipped: the optional carrier and tracking number (only with status shipped).
        OrderAdmin::Tracking tracking;
        tracking.carrier = body.optText("carrier");
        tracking.trackingNumber = body.optText("tracking_number");
        if (!body.failed("carrier") && !body.failed("tracking_number")) {
            for (const auto& [field, message] : checkTracking(tracking.carrier, tracking.trackingNumber))
                body.fail(field, message);
            if (status && *status != "shipped") {
                if (tracking.carrier) body.fail("carrier", "Only an order being marked as shipped takes a carrier.");
                if (tracking.trackingNumber)
                    body.fail("tracking_number", "Only an order being marked as shipped takes a tracking number.");
            }
        }
        // Mark as paid (pending -> paid): the reference of the money received outside the provider.
        auto paymentReference = body.optLine("payment_reference", kMaxPaymentReferenceChars);
        if (paymentReference && status && *status != "paid")
            body.fail("payment_reference", "Only an order being marked as paid takes a payment reference.");
        // Mark as paid of goods to send: where they go, when the order has no address yet (or to correct it).
        auto address = readAddress(body, "shipping_address", shippingCountries);
        if (address && !paymentReference && !body.failed("payment_reference"))
            body.fail("shipping_address", "Only an order being marked as paid takes a shipping address here; "
                                          "set one with PUT /api/v1/admin/orders/{id}/shipping-address.");
        body.check();
        std::optional<OrderAdmin::Payment> payment;
        if (paymentReference) payment = OrderAdmin::Payment{*paymentReference, address};
        auto order = admin.changeStatus(actor, id, *status, note, tracking, payment);
        res.json(200, {{"order", toJson(order)}});
    });

    // Staff set or correct where an order's goods go, before it ships (docs/billing.md, "Shipping and fulfilment").
    router.add("PUT", "/api/v1/admin/orders/{id}/shipping-address", Access::StaffAdmin,
               [&admin, shippingCountries](http::Request& req, http::Response& res) {
                   const auto actor = audit::actorOf(req);
                   const auto id = orderId(req);
                   http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
                   auto address = readAddress(body, "shipping_address", shippingCountries);
                   if (!address && body.ok()) body.fail("shipping_address", "This field is required.");
                   body.check();
                   res.json(200, {{"order", toJson(admin.setShippingAddress(actor, id, *address))}});
               });

    // Cancel order (docs/billing.md, "Order lifecycle"): {reason, restock}. A paid order is refunded
    // through the provider first; a provider failure is 502 and the order stays as it was.
    router.post("/api/v1/admin/orders/{id}/cancel", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = orderId(req);
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        auto reason = body.requiredLine("reason", kMaxReasonChars);
        auto restock = body.optBoolean("restock");
        if (!body.failed("restock") && !restock) body.fail("restock", "This field is required: true to return the items to stock.");
        body.check();
        auto order = admin.cancel(actor, id, reason, *restock);
        res.json(200, {{"order", toJson(order)}});
    });

    // Bulk "Mark as shipped" (docs/backoffice.md, "Bulk shipping"): {order_ids: [1..100 ids],
    // carrier?}; each order its own transaction. 200 with one result per id, whether it shipped or why not.
    router.post("/api/v1/admin/orders/bulk-ship", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        std::vector<std::string> ids;
        const auto& json = body.json();
        if (!json.contains("order_ids") || json["order_ids"].is_null()) body.fail("order_ids", "This field is required.");
        else if (!json["order_ids"].is_array()) body.fail("order_ids", "Must be a list of order ids.");
        else if (json["order_ids"].empty()) body.fail("order_ids", "Choose at least one order.");
        else if (json["order_ids"].size() > kMaxBulkOrders)
            body.fail("order_ids", "Choose at most " + std::to_string(kMaxBulkOrders) + " orders at a time.");
        else
            for (const auto& id : json["order_ids"]) {
                if (!id.is_string() || !common::isUuid(id.get<std::string>())) {
                    body.fail("order_ids", "Each entry must be an order id.");
                    break;
                }
                ids.push_back(Poco::toLower(id.get<std::string>()));
            }
        OrderAdmin::Tracking tracking;
        tracking.carrier = body.optText("carrier");
        if (body.has("tracking_number"))
            body.fail("tracking_number", "Bulk shipping takes no tracking number: add one on the order itself.");
        else if (!body.failed("carrier"))
            for (const auto& [field, message] : checkTracking(tracking.carrier, tracking.trackingNumber)) body.fail(field, message);
        body.check();
        nlohmann::json results = nlohmann::json::array();
        int shipped = 0;
        for (const auto& r : admin.bulkShip(actor, ids, tracking.carrier)) {
            shipped += r.ok ? 1 : 0;
            results.push_back(toJson(r));
        }
        res.json(200, {{"results", results}, {"shipped", shipped}, {"failed", static_cast<int>(results.size()) - shipped}});
    });

    // A refund (docs/billing.md, "Refunds"): {amount, reason, restock}; an optional Idempotency-Key
    // header makes a repeat of the same request (a double click, a retry) answer without refunding again.
    router.post("/api/v1/admin/orders/{id}/refunds", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = orderId(req);
        OrderAdmin::RefundInput in;
        in.clientKey = http::idempotencyKey(req);
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        // lines: [{order_item_id, quantity}], at most 100; with them the amount may be left out.
        const auto& raw = body.json();
        if (auto it = raw.find("lines"); it != raw.end() && !it->is_null()) {
            if (!it->is_array() || it->empty() || it->size() > 100)
                body.fail("lines", "Must be a list of 1 to 100 lines: {order_item_id, quantity}.");
            else
                for (std::size_t i = 0; i < it->size(); ++i) {
                    const auto& l = (*it)[i];
                    const std::string field = "lines[" + std::to_string(i) + "]";
                    const auto item = l.is_object() ? l.find("order_item_id") : l.end();
                    const auto quantity = l.is_object() ? l.find("quantity") : l.end();
                    if (!l.is_object() || item == l.end() || !item->is_string() || !common::isUuid(item->get<std::string>()))
                        body.fail(field, "Needs order_item_id, the id of one of the order's lines.");
                    else if (quantity == l.end() || !quantity->is_number_integer() || quantity->get<std::int64_t>() < 1 ||
                             quantity->get<std::int64_t>() > 1000000)
                        body.fail(field, "Needs quantity, a whole number of at least 1.");
                    else
                        in.lines.push_back({item->get<std::string>(), quantity->get<std::int64_t>()});
                }
        }
        // late_payment_id: return a payment made for the order already paid (the amount may be left out: all of it).
        auto latePayment = body.optText("late_payment_id");
        auto amount = body.optInteger("amount");
        if (!body.failed("amount")) {
            if (!amount && in.lines.empty() && !latePayment && !body.failed("lines")) body.fail("amount", "This field is required.");
            else if (amount && *amount <= 0) body.fail("amount", "Must be more than 0 (in cents).");
        }
        // The refund's reason goes to the provider, the credit note and the CSV: one line.
        auto reason = body.optLine("reason", kMaxReasonChars);
        auto restock = body.optBoolean("restock");
        body.check();
        in.amount = amount;
        in.reason = reason;
        in.restock = restock.value_or(false);
        in.latePaymentId = latePayment;
        auto order = admin.refund(actor, id, in);
        res.json(200, {{"order", toJson(order)}});
    });
}

} // namespace storefront::billing

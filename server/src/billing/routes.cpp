#include "billing/routes.h"

#include "audit/audit.h"
#include "billing/orders/rules.h"
#include "billing/provider/stripe_signature.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

#include <Poco/Logger.h>

#include <algorithm>

namespace storefront::billing {

namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::size_t kMaxSlugChars = 200;

// The optional returnPath: a path on this site.
std::optional<std::string> returnPathOf(http::Body& body) {
    auto path = body.optText("returnPath");
    if (path && !isSafeReturnPath(*path)) {
        body.fail("returnPath", "Must be a path on this site, starting with /.");
        return std::nullopt;
    }
    return path;
}

CheckoutInput checkoutInputOf(http::Body& body) {
    // Money is the server's: a client that names an amount is refused rather than ignored.
    for (const char* field : {"amount", "unitAmount", "unit_amount", "amount_total", "price", "currency"})
        if (body.json().contains(field))
            throw ApiError::validation({{field, "Prices are set by the server."}}, "Prices are set by the server.");
    CheckoutInput input;
    input.productSlug = body.requiredText("productSlug", kMaxSlugChars);
    input.priceId = body.optText("priceId");
    // The range is CheckoutService's rule; a value far outside it only has to stay outside it.
    if (auto q = body.optInteger("quantity")) input.quantity = static_cast<int>(std::clamp<std::int64_t>(*q, 0, 1000));
    input.returnPath = returnPathOf(body);
    body.check();
    return input;
}

} // namespace

void registerRoutes(http::Router& router, CheckoutService& checkout, AccountQueries& account, OrderAdmin& orders) {
    router.post("/functions/v1/create-checkout-session", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        http::Body body(req);
        auto input = checkoutInputOf(body);
        const auto* caller = req.caller();
        auto started = checkout.start({caller->userId, caller->email}, input);
        res.json(200, {{"sessionId", started.sessionId}, {"url", started.url}, {"checkoutId", started.checkoutId}});
    });

    router.post("/functions/v1/create-portal-session", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        http::Body body(req);
        auto returnPath = returnPathOf(body);
        body.check();
        auto url = checkout.portal(req.caller()->userId, returnPath.value_or("/dashboard"));
        res.json(200, {{"url", url}});
    });

    router.post("/functions/v1/validate-subscription", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        http::Body body(req);
        auto slug = body.requiredText("productSlug", kMaxSlugChars);
        body.check();
        auto result = account.validate(req.caller()->userId, slug);
        if (!result) throw ApiError::notFound("product_not_found", "No such product.");
        res.json(200, *result);
    });

    router.get("/api/v1/account/dashboard", http::Access::SignedIn, [&account, &checkout](http::Request& req, http::Response& res) {
        auto dashboard = account.dashboard(req.caller()->userId);
        // "Manage billing" is offered only to customers the provider knows.
        dashboard["billing_portal"] = checkout.hasBillingAccount(req.caller()->userId);
        res.json(200, dashboard);
    });

    router.get("/api/v1/account/orders", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req, AccountQueries::kDashboardOrders);
        res.json(200, http::pageJson(account.orders(req.caller()->userId, http::pageQuery(page)), page,
                                     [](const nlohmann::json& order) { return order; }));
    });

    // The customer's own cancellation of an unpaid order (docs/billing.md, "Unpaid orders").
    router.post("/api/v1/account/orders/{id}/cancel", http::Access::SignedIn, [&account, &orders](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "order_not_found", "No such order.");
        const auto& userId = req.caller()->userId;
        orders.cancelForCustomer(audit::actorOf(req), userId, id);
        auto order = account.order(userId, id);
        if (!order) throw ApiError::notFound("order_not_found", "No such order.");
        res.json(200, *order);
    });

    router.get("/api/v1/account/checkouts/{id}", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        auto result = account.checkout(req.caller()->userId, http::idParam(req, "checkout_not_found", "No such checkout."));
        if (!result) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        res.json(200, *result);
    });

    router.post("/api/v1/account/checkouts/{id}/cancel", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "checkout_not_found", "No such checkout.");
        res.json(200, {{"status", checkout.cancel(req.caller()->userId, id)}});
    });
}

void registerStripeWebhook(http::Router& router, EventProcessor& events, std::vector<std::string> secrets) {
    router.post("/webhooks/stripe", http::Access::Anyone, [&events, secrets](http::Request& req, http::Response& res) {
        auto& log = Poco::Logger::get("billing");
        const std::string& payload = req.body(); // the raw bytes Stripe signed
        auto check = verifyStripeSignature(req.header("Stripe-Signature"), payload, secrets);
        if (!check.ok()) {
            log.warning("refused a Stripe webhook from %s: %s", req.clientAddress(), std::string(describe(check.status)));
            if (check.status == SignatureStatus::NoSecretConfigured)
                throw ApiError(ErrorKind::Internal, "webhook_not_configured", "The webhook secret is not configured.");
            throw ApiError(ErrorKind::BadRequest, "invalid_signature", "The Stripe-Signature header does not verify.");
        }
        EventProcessor::Outcome outcome;
        try {
            outcome = events.ingest("stripe", payload);
        } catch (const MalformedEvent& e) {
            throw ApiError(ErrorKind::BadRequest, "malformed_event", e.what());
        }
        res.json(200, {{"received", true}, {"outcome", outcomeName(outcome)}});
    });
}

} // namespace storefront::billing

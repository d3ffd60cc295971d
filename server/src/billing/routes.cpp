#include "billing/routes.h"

#include "billing/rules.h"
#include "billing/stripe_signature.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>

namespace storefront::billing {

namespace {

using http::ApiError;
using http::ErrorKind;

const http::Caller& callerOf(const http::Request& req) { return *req.caller(); }

// The body as a JSON object; an empty body is an empty object (the apps send none to some calls).
nlohmann::json bodyOf(http::Request& req) {
    if (req.body().empty()) return nlohmann::json::object();
    return req.json();
}

std::optional<std::string> optionalText(const nlohmann::json& body, const char* name) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) throw ApiError::validation({{name, "Must be text."}});
    return it->get<std::string>();
}

std::string requiredText(const nlohmann::json& body, const char* name) {
    auto value = optionalText(body, name);
    if (!value || value->empty() || value->size() > 200) throw ApiError::validation({{name, "This field is required."}});
    return *value;
}

std::optional<std::string> returnPathOf(const nlohmann::json& body) {
    auto path = optionalText(body, "returnPath");
    if (path && !isSafeReturnPath(*path))
        throw ApiError::validation({{"returnPath", "Must be a path on this site, starting with /."}});
    return path;
}

} // namespace

void registerRoutes(http::Router& router, CheckoutService& checkout, AccountQueries& account) {
    router.post("/functions/v1/create-checkout-session", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        auto body = bodyOf(req);
        // Money is the server's: a client that names an amount is refused rather than ignored.
        for (const char* field : {"amount", "unitAmount", "unit_amount", "amount_total", "price", "currency"})
            if (body.contains(field))
                throw ApiError::validation({{field, "Prices are set by the server."}}, "Prices are set by the server.");
        CheckoutInput input;
        input.productSlug = requiredText(body, "productSlug");
        input.priceId = optionalText(body, "priceId");
        if (auto it = body.find("quantity"); it != body.end() && !it->is_null()) {
            if (!it->is_number_integer()) throw ApiError::validation({{"quantity", "Must be a whole number."}});
            // The range is CheckoutService's rule; a value far outside it only has to stay outside it.
            const std::int64_t q = it->is_number_unsigned() && it->get<std::uint64_t>() > 1000 ? 1000 : it->get<std::int64_t>();
            input.quantity = static_cast<int>(std::clamp<std::int64_t>(q, 0, 1000));
        }
        input.returnPath = returnPathOf(body);
        const auto& caller = callerOf(req);
        auto started = checkout.start({caller.userId, caller.email}, input);
        res.json(200, {{"sessionId", started.sessionId}, {"url", started.url}, {"checkoutId", started.checkoutId}});
        res.set("Cache-Control", "no-store");
    });

    router.post("/functions/v1/create-portal-session", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        auto body = bodyOf(req);
        auto url = checkout.portal(callerOf(req).userId, returnPathOf(body).value_or("/dashboard"));
        res.json(200, {{"url", url}});
        res.set("Cache-Control", "no-store");
    });

    router.post("/functions/v1/validate-subscription", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        auto body = bodyOf(req);
        auto result = account.validate(callerOf(req).userId, requiredText(body, "productSlug"));
        if (!result) throw ApiError::notFound("product_not_found", "No such product.");
        res.json(200, *result);
        res.set("Cache-Control", "no-store");
    });

    router.get("/api/v1/account/dashboard", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        res.json(200, account.dashboard(callerOf(req).userId));
        res.set("Cache-Control", "no-store");
    });

    router.get("/api/v1/account/checkouts/{id}", http::Access::SignedIn, [&account](http::Request& req, http::Response& res) {
        const auto& id = req.param("id");
        auto result = common::isUuid(id) ? account.checkout(callerOf(req).userId, id) : std::nullopt;
        if (!result) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        res.json(200, *result);
        res.set("Cache-Control", "no-store");
    });

    router.post("/api/v1/account/checkouts/{id}/cancel", http::Access::SignedIn, [&checkout](http::Request& req, http::Response& res) {
        const auto& id = req.param("id");
        if (!common::isUuid(id)) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        res.json(200, {{"status", checkout.cancel(callerOf(req).userId, id)}});
        res.set("Cache-Control", "no-store");
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

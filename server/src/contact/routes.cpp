#include "contact/routes.h"

#include "http/api_error.h"

namespace storefront::contact {

void registerRoutes(http::Router& router, ContactService& service, db::RateLimiter& limiter, ContactRouteOptions options) {
    auto handler = [&service, &limiter, options](http::Request& req, http::Response& res) {
        auto body = req.json();
        auto decision = limiter.hit("contact:" + req.clientAddress(), options.limitPerWindow, options.windowSeconds);
        if (!decision.allowed) throw http::ApiError::rateLimited(decision.retryAfterSeconds);
        nlohmann::json fieldErrors;
        auto submission = validateContact(body, fieldErrors);
        if (!submission) throw http::ApiError::validation(fieldErrors);
        auto id = service.submit(*submission, req.clientAddress());
        if (options.mailQueued) options.mailQueued();
        res.json(201, {{"id", id}});
    };
    router.post("/api/v1/contact", http::Access::Anyone, handler);
    // The path the company's existing clients call; same body, same rules.
    router.post("/functions/v1/send-contact-email", http::Access::Anyone, handler);
}

} // namespace storefront::contact

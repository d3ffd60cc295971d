#include "contact/routes.h"

#include "http/api_error.h"

namespace storefront::contact {

void registerRoutes(http::Router& router, ContactService& service, db::RateLimiter& limiter, int limitPerWindow,
                    int windowSeconds, Identify identify) {
    auto handler = [&service, &limiter, limitPerWindow, windowSeconds, identify](http::Request& req, http::Response& res) {
        auto body = req.json();
        auto decision = limiter.hit("contact:" + req.clientAddress(), limitPerWindow, windowSeconds);
        if (!decision.allowed) throw http::ApiError::rateLimited(decision.retryAfterSeconds);
        nlohmann::json fieldErrors;
        auto submission = validateContact(body, fieldErrors);
        if (!submission) throw http::ApiError::validation(fieldErrors);
        std::optional<std::string> sender;
        if (identify) sender = identify(req.header("Authorization"));
        res.json(201, {{"id", service.submit(*submission, req.clientAddress(), sender)}});
    };
    router.post("/api/v1/contact", http::Access::Anyone, handler);
    // The path the company's existing clients call; same body, same rules.
    router.post("/functions/v1/send-contact-email", http::Access::Anyone, handler);
}

} // namespace storefront::contact

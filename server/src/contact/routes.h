#pragma once
#include "contact/contact_service.h"
#include "db/rate_limiter.h"
#include "http/router.h"

#include <functional>

namespace storefront::contact {

struct ContactRouteOptions {
    int limitPerWindow = 5;
    int windowSeconds = 600;
    std::function<void()> mailQueued; // wakes the mail job
};

// POST /api/v1/contact and the existing apps' POST /functions/v1/send-contact-email.
void registerRoutes(http::Router& router, ContactService& service, db::RateLimiter& limiter, ContactRouteOptions options);

} // namespace storefront::contact

#pragma once
#include "contact/contact_service.h"
#include "db/rate_limiter.h"
#include "http/router.h"

namespace storefront::contact {

// POST /api/v1/contact and the existing apps' POST /functions/v1/send-contact-email, at most
// `limitPerWindow` per client address per `windowSeconds`.
void registerRoutes(http::Router& router, ContactService& service, db::RateLimiter& limiter, int limitPerWindow,
                    int windowSeconds);

} // namespace storefront::contact

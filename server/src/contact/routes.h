#pragma once
#include "contact/contact_service.h"
#include "db/rate_limiter.h"
#include "http/router.h"

#include <functional>
#include <optional>
#include <string>

namespace storefront::contact {

// The signed-in sender of a request, if any: the user id (auth/ answers it; app/ wires it in).
using Identify = std::function<std::optional<std::string>(const std::string& authorizationHeader)>;

// POST /api/v1/contact and the existing apps' POST /functions/v1/send-contact-email, at most
// `limitPerWindow` per client address per `windowSeconds`. A message belongs to an account only
// when its sender was signed in (`identify`), never because of the address typed into the form.
void registerRoutes(http::Router& router, ContactService& service, db::RateLimiter& limiter, int limitPerWindow,
                    int windowSeconds, Identify identify);

} // namespace storefront::contact

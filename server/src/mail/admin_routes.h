#pragma once
#include "http/router.h"
#include "mail/outbox_admin.h"

namespace storefront::mail {

// GET /api/v1/admin/mail and POST /api/v1/admin/mail/{id}/retry (staff admins).
void registerAdminRoutes(http::Router& router, OutboxAdmin& admin);

} // namespace storefront::mail

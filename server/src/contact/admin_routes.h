#pragma once
#include "contact/enquiry_admin.h"
#include "http/router.h"

namespace storefront::contact {

// GET /api/v1/admin/enquiries and PATCH /api/v1/admin/enquiries/{id} {handled} (staff admins).
void registerAdminRoutes(http::Router& router, EnquiryAdmin& admin);

} // namespace storefront::contact

#pragma once
// /api/v1/admin/customers: the staff customers list and detail (CustomerRepository) and the
// actions on an account (auth::CustomerAdmin). Every route is StaffAdmin (aal2 outside development).
#include "auth/customer_admin.h"
#include "backoffice/customer_repository.h"
#include "http/router.h"

namespace storefront::backoffice {

void registerCustomerRoutes(http::Router& router, CustomerRepository& customers, auth::CustomerAdmin& admin);

} // namespace storefront::backoffice

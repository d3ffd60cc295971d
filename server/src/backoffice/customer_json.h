#pragma once
// The staff customers screen's JSON shapes (one function per shape).
#include "backoffice/customer_repository.h"

#include <nlohmann/json.hpp>

namespace storefront::backoffice {

// A row of the list: a closed account has "closed": true and null email and name.
nlohmann::json toJson(const CustomerRow& row);
// GET /api/v1/admin/customers/{id}: {"customer", "orders", "subscriptions", "invoices",
// "enterprise", "wirewrite", "factors", "sign_ins"}.
nlohmann::json toJson(const CustomerDetail& detail);

} // namespace storefront::backoffice

#pragma once
// The staff customers list as CSV: GET /api/v1/admin/customers/export.csv (docs/backoffice.md,
// "Exports"), with the customers list's search (email or name), filters (role=admin,
// two_factor=true, unconfirmed=true, closed=true; "false" for the opposite) and sort (created,
// email, last_sign_in), over users and profiles. A closed account (users.deleted_at set) is
// exported as "Closed account", with no email or name.
#include "db/database.h"
#include "db/list.h"
#include "http/router.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace storefront::auth {

struct CustomerExportFilter {
    std::optional<std::string> search;                       // part of the email or the name, as typed
    std::optional<bool> admin, twoFactor, unconfirmed, closed; // absent: either
};

struct CustomerExportRow {
    std::string id, createdAt;
    std::optional<std::string> email, fullName, confirmedAt, lastSignInAt, closedAt;
    bool admin = false, twoFactor = false;
};

class CustomerExportRepository {
public:
    static const db::SortColumns kSorts; // created (default, newest first), email, last_sign_in

    explicit CustomerExportRepository(db::Database& db) : db_(db) {}
    std::int64_t each(const CustomerExportFilter& filter, const db::Keyset& order,
                      const std::function<void(const CustomerExportRow&)>& onRow);
    db::Database& database() { return db_; }

private:
    db::Database& db_;
};

void registerCustomerExport(http::Router& router, CustomerExportRepository& repo);

} // namespace storefront::auth

#include "enterprise/account_repository.h"

namespace storefront::enterprise {

namespace {

constexpr const char* kAccountColumns =
    "SELECT CAST(a.id AS TEXT) AS id, CAST(a.admin_user_id AS TEXT) AS admin_user_id, a.company_name, "
    "a.billing_email, a.max_licenses, a.is_active, CAST(a.created_at AS TEXT) AS created_at, "
    "(SELECT COUNT(*) FROM enterprise_members m WHERE m.enterprise_account_id = a.id) AS member_count "
    "FROM enterprise_accounts a ";

const std::string kFindAdministeredBy =
    std::string(kAccountColumns) + "WHERE a.admin_user_id = ? ORDER BY a.created_at ASC, a.id ASC LIMIT 1";

constexpr const char* kIsAdminOf = "SELECT 1 FROM enterprise_accounts WHERE admin_user_id = ? AND id = ?";

Account readAccount(const db::Row& r) {
    Account a;
    a.id = r.text("id");
    a.adminUserId = r.text("admin_user_id");
    a.companyName = r.text("company_name");
    a.billingEmail = r.text("billing_email");
    a.maxLicenses = r.int64("max_licenses");
    a.isActive = r.boolean("is_active");
    a.createdAt = r.timestamp("created_at");
    a.memberCount = r.int64("member_count");
    return a;
}

} // namespace

std::optional<Account> AccountRepository::findAdministeredBy(const std::string& userId) {
    auto s = db_.session();
    return db::query(s, kFindAdministeredBy).bind(userId).one(readAccount);
}

bool AccountRepository::isAdminOf(const std::string& userId, const std::string& accountId) {
    auto s = db_.session();
    return db::query(s, kIsAdminOf).bind(userId, accountId).exists();
}

} // namespace storefront::enterprise

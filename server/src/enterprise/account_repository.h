#pragma once
// SQL for enterprise accounts, their members and licences (migration 0003).
#include "db/database.h"

#include <optional>
#include <string>

namespace storefront::enterprise {

struct Account {
    std::string id;
    std::string adminUserId;
    std::string companyName;
    std::string billingEmail;
    std::int64_t maxLicenses = 0;
    bool isActive = false;
    std::string createdAt;
    std::int64_t memberCount = 0;
};

class AccountRepository {
public:
    explicit AccountRepository(db::Database& db) : db_(db) {}

    // The account whose admin is `userId` (active or not), the oldest when there are several.
    std::optional<Account> findAdministeredBy(const std::string& userId);
    // Whether `userId` is the admin of the account `accountId`.
    bool isAdminOf(const std::string& userId, const std::string& accountId);

private:
    db::Database& db_;
};

} // namespace storefront::enterprise

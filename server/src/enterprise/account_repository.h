#pragma once
// SQL for enterprise accounts and their members (migrations 0003 and 0009). Licences and seats
// are in licence_repository.h.
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::enterprise {

struct Account {
    std::string id;
    std::string adminUserId;
    std::optional<std::string> adminEmail;
    std::string companyName;
    std::string billingEmail;
    std::int64_t maxLicenses = 0;
    bool isActive = false;
    std::string createdAt;
    std::int64_t memberCount = 0;  // every member, the admin included (the staff view's user count)
    std::int64_t licenseCount = 0; // licence rows (products)
};

struct Member {
    std::string id;
    std::string userId;
    std::optional<std::string> email;
    std::optional<std::string> fullName;
    std::string role; // admin | member
    std::string addedAt;
    std::vector<std::string> seatProductIds; // products whose licence seat the member holds
};

struct NewAccount {
    std::string adminUserId, companyName, billingEmail;
    std::int64_t maxLicenses = 5;
};

struct AccountChanges {
    std::optional<std::string> companyName, billingEmail;
    std::optional<std::int64_t> maxLicenses;
    std::optional<bool> isActive;
};

// One team a user is on, as their own data export shows it.
struct Membership {
    std::string memberId, accountId, companyName, role, addedAt;
};

class AccountRepository {
public:
    explicit AccountRepository(db::Database& db) : db_(db) {}

    // The account whose admin is `userId` (active or not), the oldest when there are several.
    std::optional<Account> findAdministeredBy(const std::string& userId);
    std::optional<Account> findAdministeredBy(Poco::Data::Session& s, const std::string& userId);
    // Whether `userId` is the admin of the account `accountId`.
    bool isAdminOf(const std::string& userId, const std::string& accountId);

    std::optional<Account> find(Poco::Data::Session& s, const std::string& id);
    // Staff list, newest first; `search` (the term as typed) matches a part of the company name,
    // the billing email or the admin's email.
    db::Page<Account> list(const std::optional<std::string>& search, db::PageQuery page);

    // Touches the account row: the lock that serialises every change to its members, licences and
    // seats (PostgreSQL row lock, SQLite's single writer). False when there is no such account.
    bool lock(db::Tx& tx, const std::string& id);
    std::string insert(db::Tx& tx, const NewAccount& account);
    void update(db::Tx& tx, const std::string& id, const AccountChanges& changes);

    // Members, oldest first, with the products they hold seats of.
    std::vector<Member> members(Poco::Data::Session& s, const std::string& accountId);
    std::optional<Member> findMember(Poco::Data::Session& s, const std::string& accountId, const std::string& memberId);
    bool isMember(Poco::Data::Session& s, const std::string& accountId, const std::string& userId);
    std::int64_t memberCount(Poco::Data::Session& s, const std::string& accountId);
    std::string insertMember(db::Tx& tx, const std::string& accountId, const std::string& userId, const std::string& role,
                             const std::optional<std::string>& addedBy);
    // The teams `userId` is on, oldest first.
    std::vector<Membership> membershipsOf(Poco::Data::Session& s, const std::string& userId);
    // Deletes the member row (its seats must be freed first: LicenceRepository::freeSeatsOf).
    void deleteMember(db::Tx& tx, const std::string& memberId);

private:
    db::Database& db_;
};

} // namespace storefront::enterprise

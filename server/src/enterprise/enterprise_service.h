#pragma once
// The rules of enterprise accounts: staff create and run accounts and their licences; an
// account's admin adds and removes team members against max_licenses; members hold licence seats.
//
// Every change to an account's members, licences or seats runs in one transaction that first
// locks the account row (AccountRepository::lock), so the member limit and used_count hold under
// concurrency on both databases. Seats: each member holds at most one seat of each licence; free
// seats go to members without one, longest-standing first (fillSeats), whenever a member joins,
// leaves or a licence is added or grows. Every write is audited in its transaction.
#include "audit/audit.h"
#include "auth/admin.h"
#include "enterprise/account_repository.h"
#include "enterprise/licence_repository.h"
#include "mail/outbox.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::enterprise {

struct CreateAccountInput {
    std::string companyName, billingEmail, adminEmail; // emails already checked for shape
    std::optional<std::int64_t> maxLicenses;
};

struct AccountDetails {
    Account account;
    std::vector<Member> members;
    std::vector<Licence> licences;
};

class EnterpriseService {
public:
    EnterpriseService(db::Database& db, AccountRepository& accounts, auth::AdminUsers& users, mail::Outbox& outbox,
                      std::string publicUrl, std::string siteName)
        : db_(db), accounts_(accounts), users_(users), outbox_(outbox), publicUrl_(std::move(publicUrl)),
          siteName_(std::move(siteName)) {}

    // Staff (Access::StaffAdmin). Unknown ids are 404.
    AccountDetails details(const std::string& accountId);
    // A new account; its admin is the user with adminEmail, or a new pre-confirmed user who is
    // mailed an invitation link to choose a password. `invited` says which.
    AccountDetails create(const audit::Actor& actor, const CreateAccountInput& input, bool& invited);
    Account update(const audit::Actor& actor, const std::string& accountId, const AccountChanges& changes);
    Licence addLicence(const audit::Actor& actor, const std::string& accountId, const std::string& productId,
                       std::int64_t quantity);
    Licence changeLicence(const audit::Actor& actor, const std::string& accountId, const std::string& licenceId,
                          std::int64_t quantity);
    void removeLicence(const audit::Actor& actor, const std::string& accountId, const std::string& licenceId);

    // The account's admin (Access::EnterpriseAdmin): their account, 404 when they have none.
    AccountDetails team(const std::string& adminUserId);
    Member addMember(const audit::Actor& actor, const std::string& adminUserId, const std::string& email);
    void removeMember(const audit::Actor& actor, const std::string& adminUserId, const std::string& memberId);

    // Closing an account (inside its transaction): takes the user off every team, freeing their
    // seats for the next members. Audited by ids only. The caller has checked that the user
    // administers no account.
    void removeFromEveryTeam(db::Tx& tx, const audit::Actor& actor, const std::string& userId);

private:
    AccountDetails detailsIn(Poco::Data::Session& s, const std::string& accountId);
    void lockOrThrow(db::Tx& tx, const std::string& accountId);
    void fillSeats(db::Tx& tx, const std::string& accountId);
    void mailInvitation(db::Tx& tx, const std::string& email, const std::string& companyName, const std::string& link);

    db::Database& db_;
    AccountRepository& accounts_;
    LicenceRepository licences_;
    auth::UserRepository userRecords_;
    auth::AdminUsers& users_;
    mail::Outbox& outbox_;
    std::string publicUrl_;
    std::string siteName_;
};

} // namespace storefront::enterprise

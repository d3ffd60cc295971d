#pragma once
// The enterprise area: accounts, members, licences and their seats, and the "admin of this
// account" access rule. Uses the accounts area's admin service to invite a new account admin,
// and the mail outbox for the invitation.
#include "auth/admin.h"
#include "common/module.h"
#include "db/database.h"
#include "enterprise/account_repository.h"
#include "enterprise/enterprise_service.h"
#include "mail/outbox.h"

namespace storefront::enterprise {

class Module : public storefront::Module {
public:
    Module(db::Database& db, auth::AdminUsers& users, mail::Outbox& outbox, std::string publicUrl, std::string siteName)
        : users_(users), accounts_(db), service_(db, accounts_, users, outbox, std::move(publicUrl), std::move(siteName)) {}
    std::string_view name() const override { return "enterprise"; }
    void routes(http::Router& router) override;
    void demo(db::Database& db) override;

    // Closing an account takes the user off their teams (privacy area).
    EnterpriseService& service() { return service_; }
    AccountRepository& accounts() { return accounts_; }

private:
    auth::AdminUsers& users_;
    LicenceRepository licences_;
    AccountRepository accounts_;
    EnterpriseService service_;
};

} // namespace storefront::enterprise

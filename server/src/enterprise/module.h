#pragma once
// The enterprise area: accounts, members, licences, and the "admin of this account" access rule.
#include "common/module.h"
#include "db/database.h"
#include "enterprise/account_repository.h"

namespace storefront::enterprise {

class Module : public storefront::Module {
public:
    explicit Module(db::Database& db) : accounts_(db) {}
    std::string_view name() const override { return "enterprise"; }
    void routes(http::Router& router) override;

private:
    AccountRepository accounts_;
};

} // namespace storefront::enterprise

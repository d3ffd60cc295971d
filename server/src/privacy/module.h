#pragma once
// The privacy area: the customer's own data (GET /api/v1/account/export) and closing the account
// (DELETE /api/v1/account), docs/privacy.md. Built after the areas whose data it reads and
// removes: the accounts area's password check, billing's provider and checkouts, enterprise teams.
#include "auth/reauthentication.h"
#include "billing/checkout_service.h"
#include "billing/provider/payment_provider.h"
#include "common/module.h"
#include "db/database.h"
#include "enterprise/enterprise_service.h"
#include "privacy/privacy_service.h"

namespace storefront::privacy {

class Module : public storefront::Module {
public:
    Module(db::Database& db, auth::Reauthentication& reauth, billing::PaymentProvider& provider,
           billing::CheckoutService& checkout, enterprise::EnterpriseService& teams)
        : clock_(db.clock()), service_(db, reauth, provider, checkout, teams) {}
    std::string_view name() const override { return "privacy"; }
    void routes(http::Router& router) override;

private:
    const Clock& clock_;
    PrivacyService service_;
};

} // namespace storefront::privacy

#pragma once
// The back office's own area: the admin dashboard's figures (GET /api/v1/admin/stats) and the
// customers screen (/api/v1/admin/customers: its reads here, its actions auth::CustomerAdmin's).
// The staff screens' other endpoints live with the data they change (catalog/, billing/, audit/).
#include "auth/customer_admin.h"
#include "backoffice/customer_repository.h"
#include "backoffice/stats_repository.h"
#include "common/clock.h"
#include "common/module.h"

#include <cstdint>
#include <functional>

namespace storefront::backoffice {

class Module : public storefront::Module {
public:
    Module(db::Database& db, const Clock& clock, auth::CustomerAdmin& customerAdmin)
        : stats_(db), customers_(db), customerAdmin_(customerAdmin), clock_(clock) {}
    std::string_view name() const override { return "backoffice"; }
    void routes(http::Router& router) override;
    // `make run`: an unconfirmed sign-up and a closed account beside billing's demo customers.
    void demo(db::Database& db) override;

private:
    StatsRepository stats_;
    CustomerRepository customers_;
    auth::CustomerAdmin& customerAdmin_;
    const Clock& clock_;
};

} // namespace storefront::backoffice

#pragma once
// The back office's own area: the admin dashboard's figures (GET /api/v1/admin/stats). The staff
// screens' other endpoints live with the data they change (catalog/, billing/, audit/).
#include "backoffice/stats_repository.h"
#include "common/clock.h"
#include "common/module.h"

#include <cstdint>
#include <functional>

namespace storefront::backoffice {

class Module : public storefront::Module {
public:
    Module(db::Database& db, const Clock& clock) : stats_(db), clock_(clock) {}
    std::string_view name() const override { return "backoffice"; }
    void routes(http::Router& router) override;

private:
    StatsRepository stats_;
    const Clock& clock_;
};

} // namespace storefront::backoffice

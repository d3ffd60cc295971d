#pragma once
// The back office's own area: the admin dashboard's figures (GET /api/v1/admin/stats). The staff
// screens' other endpoints live with the data they change (catalog/, billing/, audit/).
#include "backoffice/stats_repository.h"
#include "common/module.h"

#include <cstdint>
#include <functional>

namespace storefront::backoffice {

// Unix seconds now; tests hand in their own.
using Clock = std::function<std::int64_t()>;
Clock systemClock();

class Module : public storefront::Module {
public:
    explicit Module(db::Database& db, Clock clock = systemClock()) : stats_(db), clock_(std::move(clock)) {}
    std::string_view name() const override { return "backoffice"; }
    void routes(http::Router& router) override;

private:
    StatsRepository stats_;
    Clock clock_;
};

} // namespace storefront::backoffice

#pragma once
// The WireWrite companion tool: the companion app's API, the staff screens' API, the inactivity
// job (scheduled here, and `storefront jobs run inactivity`) and the demo rows.
#include "common/module.h"
#include "companion/timestamps.h"
#include "companion/companion_repository.h"
#include "companion/companion_service.h"
#include "companion/inactivity_job.h"
#include "companion/routes.h"
#include "companion/settings.h"
#include "mail/outbox.h"

#include <atomic>
#include <chrono>

namespace storefront::companion {

class Module : public storefront::Module {
public:
    Module(db::Database& db, Settings settings, mail::Outbox& outbox, SystemStatus status, const Clock& clock)
        : settings_(std::move(settings)), status_(status), repo_(db), service_(db, repo_, settings_, clock),
          inactivity_(db, repo_, outbox, settings_, clock), clock_(clock) {}
    std::string_view name() const override { return "companion"; }
    void routes(http::Router& router) override;
    void jobs(Schedule& schedule) override;
    void demo(db::Database& db) override;

    InactivityJob& inactivity() { return inactivity_; }
    CompanionService& service() { return service_; }

private:
    Settings settings_;
    SystemStatus status_;
    CompanionRepository repo_;
    CompanionService service_;
    InactivityJob inactivity_;
    const Clock& clock_;
    std::chrono::steady_clock::time_point lastInactivityRun_{};
    bool inactivityRan_ = false;
};

} // namespace storefront::companion

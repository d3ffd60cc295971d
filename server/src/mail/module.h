#pragma once
// The mail area: the transport (outbox only, or SMTP) and the durable outbox every area queues
// mail into; its job delivers due mail every round. Staff see the outbox and retry failed mail.
#include "common/module.h"
#include "mail/admin_routes.h"
#include "mail/outbox_admin.h"
#include "mail/outbox.h"
#include "mail/settings.h"
#include "mail/transport.h"

#include <memory>

namespace storefront::mail {

class Module : public storefront::Module {
public:
    Module(db::Database& db, const Settings& settings)
        : transport_(makeTransport(settings)),
          outbox_(db, *transport_, settings.from, settings.retryIntervalSeconds, settings.maxAttempts, settings.subjectPrefix),
          admin_(db) {}
    std::string_view name() const override { return "mail"; }
    void routes(http::Router& router) override { registerAdminRoutes(router, admin_); }
    void jobs(Schedule& schedule) override {
        schedule.everyRound([this] { outbox_.deliverDue(); });
    }

    // A few outbox rows (sent, and one failed for "Retry now") for the staff screen.
    void demo(db::Database& db) override;

    Outbox& outbox() { return outbox_; }

private:
    std::unique_ptr<Transport> transport_;
    Outbox outbox_;
    OutboxAdmin admin_;
};

} // namespace storefront::mail

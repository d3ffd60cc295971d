#pragma once
// The Contact Sales area: the form's two routes, rate-limited per client address, and the staff's
// enquiries list with its "Handled" mark.
#include "common/module.h"
#include "contact/contact_service.h"
#include "contact/enquiry_admin.h"
#include "contact/routes.h"
#include "db/rate_limiter.h"

#include <functional>
#include <optional>
#include <string>

namespace storefront::contact {

struct Limits {
    int perWindow = 5;      // submissions per client address
    int windowSeconds = 600;
};

class Module : public storefront::Module {
public:
    Module(db::Database& db, mail::Outbox& outbox, std::string salesAddress, db::RateLimiter& limiter, Limits limits,
           Identify identify = {})
        : service_(db, outbox, std::move(salesAddress)), admin_(db), limiter_(limiter), limits_(limits),
          identify_(std::move(identify)) {}
    std::string_view name() const override { return "contact"; }
    void routes(http::Router& router) override;
    // A few enquiries (one handled) for the staff screen.
    void demo(db::Database& db) override;

private:
    ContactService service_;
    EnquiryAdmin admin_;
    db::RateLimiter& limiter_;
    Limits limits_;
    Identify identify_;
};

} // namespace storefront::contact

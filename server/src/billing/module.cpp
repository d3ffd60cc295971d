#include "billing/module.h"

#include "billing/admin_routes.h"
#include "billing/invoice_routes.h"
#include "billing/orders/record_claims.h"
#include "billing/provider/stripe_provider.h"
#include "billing/provider/stripe_signature.h"
#include "billing/routes.h"
#include "billing/subscription_routes.h"

#include <stdexcept>

namespace storefront::billing {

namespace {

// Stripe expires its own sessions and tells us: the job steps in only when that event is overdue.
constexpr int kStripeExpiryGraceSeconds = 3600;
// A finished claim answers its Idempotency-Key again for a day, then goes (migration 0028).
constexpr int kFinishedClaimsKeptSeconds = 86400;

} // namespace

Module::Module(db::Database& db, const Settings& settings, std::string publicUrl, std::string siteName,
               catalog::ProductRepository& products, mail::Outbox& outbox, bool production)
    : db_(db), settings_(settings), siteName_(std::move(siteName)), invoices_(settings.invoices), events_(db, outbox, publicUrl, invoices_, settings.pastDueGraceDays),
      account_(db, products, settings.pastDueGraceDays) {
    if (settings.provider == "local") {
        if (production)
            throw std::invalid_argument("STOREFRONT_PAYMENT_PROVIDER local is for development only (STOREFRONT_ENV=development)");
        auto local = std::make_unique<LocalProvider>(db, events_, publicUrl, settings.shippingCountries);
        local_ = local.get();
        provider_ = std::move(local);
    } else {
        StripeSettings stripe;
        stripe.secretKey = settings.stripeSecretKey;
        stripe.apiBase = settings.stripeApiBase;
        stripe.timeoutSeconds = settings.stripeTimeoutSeconds;
        provider_ = std::make_unique<StripeProvider>(stripe);
    }
    CheckoutSettings checkout;
    checkout.publicUrl = publicUrl;
    checkout.expirySeconds = settings.checkoutExpirySeconds;
    checkout.providerGraceSeconds = local_ ? 0 : kStripeExpiryGraceSeconds;
    checkout.shippingCountries = settings.shippingCountries;
    checkout_ = std::make_unique<CheckoutService>(db, products, *provider_, checkout);
    orderAdmin_ = std::make_unique<OrderAdmin>(db, *provider_, outbox, invoices_, publicUrl);
    subscriptions_ = std::make_unique<SubscriptionService>(db, *provider_, outbox, invoices_, publicUrl, settings.pastDueGraceDays);
}

void Module::routes(http::Router& router) {
    registerRoutes(router, *checkout_, account_, *orderAdmin_);
    registerAdminRoutes(router, *orderAdmin_, settings_.shippingCountries);
    registerInvoiceRoutes(router, db_, invoices_);
    registerSubscriptionRoutes(router, *subscriptions_, account_);
    // Only the local test provider has them; it exists only in development (see the constructor).
    if (local_) registerLocalPages(router, *local_, siteName_);
    else registerStripeWebhook(router, events_, splitWebhookSecrets(settings_.stripeWebhookSecret));
}

void Module::jobs(Schedule& schedule) {
    schedule.everyRound([checkout = checkout_.get()] { checkout->expireDue(); });
    schedule.everyRound([subscriptions = subscriptions_.get()] { subscriptions->remindDue(); });
    // The local test provider renews its own subscriptions when their period ends, as Stripe does.
    if (local_) schedule.everyRound([local = local_] { local->renewDue(); });
    schedule.hourly([&db = db_] {
        db.write([&](db::Tx& tx) { RecordClaims().prune(tx, tx.clock().timestampAfter(-kFinishedClaimsKeptSeconds)); });
    });
}

} // namespace storefront::billing

#pragma once
// The built-in test payment provider (STOREFRONT_PAYMENT_PROVIDER=local, the default of `make run`):
// a hosted-checkout page and a billing portal on our own server, clearly marked TEST MODE. What the
// buyer does there becomes the same events Stripe would send, applied through the same
// event inbox as Stripe's webhook (EventSink). No card details are ever asked for.
#include "billing/orders/shipping.h"
#include "billing/provider/event_sink.h"
#include "billing/provider/local_repository.h"
#include "billing/provider/payment_provider.h"
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

class LocalProvider : public PaymentProvider {
public:
    LocalProvider(db::Database& db, EventSink& events, std::string publicUrl,
                  std::vector<std::string> shippingCountries = {"NZ", "AU"})
        : store_(db), clock_(db.clock()), events_(events), publicUrl_(std::move(publicUrl)), shippingCountries_(std::move(shippingCountries)) {}

    // Where physical products ship: the choice the page offers and the check of what is posted.
    const std::vector<std::string>& shippingCountries() const { return shippingCountries_; }

    std::string name() const override { return "local"; }
    std::string createCustomer(const std::string& userId, const std::string& email) override;
    CreatedSession createCheckoutSession(const CheckoutRequest& request) override;
    void expireCheckoutSession(const std::string& sessionId) override;
    std::string createPortalSession(const std::string& customerId, const std::string& returnUrl) override;
    // Immediate: the refund succeeds at once, under an id derived from ours (a retry: the same one).
    CreatedRefund createRefund(const RefundRequest& request) override;
    // Emits customer.subscription.deleted at once (applied through the same event inbox).
    void cancelSubscriptionNow(const std::string& subscriptionId) override;
    // Emits customer.subscription.updated with the flag at once.
    void setCancelAtPeriodEnd(const std::string& subscriptionId, bool cancel) override;
    // Charges change.amountDueNow with the subscription's card outcome: invoice.paid (when there
    // is anything to pay) and customer.subscription.updated on the new plan; false when declined.
    bool changePlan(const PlanChange& change) override;

    // A renewal of a local subscription now (the TEST MODE billing page, development only), with
    // this card outcome, which also becomes the outcome of its later renewals:
    // * active or trialing: the period moves on and its invoice is paid (invoice.paid, the credit
    //   the customer holds taken off) or declined (invoice.payment_failed, past due);
    // * past due: the open invoice of the period is paid again, or declined again;
    // * cancelling at period end: it ends (customer.subscription.deleted).
    // False when there is no such local subscription or it has ended.
    bool renew(const std::string& subscriptionId, const std::string& outcome);
    // Renews every local subscription whose period has ended, with its card outcome (the job).
    void renewDue();
    // Sets the card's outcome of the subscription's renewals from the next one at its period's end
    // ("Decline the next renewal" on the TEST MODE billing page): nothing is charged now. False
    // when there is no such local subscription or it has ended.
    bool setRenewalOutcome(const std::string& subscriptionId, const std::string& outcome);

    // What the hosted-checkout page shows.
    struct Session {
        std::string id;          // cs_local_...
        std::string checkoutId;
        std::string status;      // creating | open | completed | expired
        std::string mode;
        std::string itemName;
        std::int64_t quantity = 0;
        std::int64_t unitAmount = 0;
        std::int64_t amountTotal = 0;
        std::string currency;
        std::string interval;    // subscription mode
        int intervalCount = 0;
        std::string successUrl;
        std::string cancelUrl;
        bool collectsShipping = false; // a physical product: the page asks for the address and phone
        int trialDays = 0;             // subscription mode: a free trial, nothing charged today
    };
    std::optional<Session> session(const std::string& sessionId);

    // The buyer pays: emits checkout.session.completed (and, for a subscription,
    // customer.subscription.created and invoice.paid first). False unless the session is open.
    // `address`: what the page collected for a checkout that collects shipping (already valid).
    bool pay(const std::string& sessionId, const std::optional<ShippingAddress>& address = std::nullopt);

    struct PortalSubscription {
        std::string id;          // sub_local_...
        std::string productName;
        std::string status;
        std::optional<std::string> periodEnd;
        bool cancelAtPeriodEnd = false;
        bool nextRenewalDeclines = false;
    };
    struct Portal {
        std::string returnUrl;
        std::vector<PortalSubscription> subscriptions;
    };
    // A live portal link (one hour), else nullopt.
    std::optional<Portal> portal(const std::string& token);
    // Cancels one of the portal user's subscriptions now (customer.subscription.deleted).
    bool cancelSubscription(const std::string& token, const std::string& subscriptionId);

private:
    void emit(const std::string& eventId, const std::string& type, nlohmann::json object);
    // The subscription as Stripe's object, with these period bounds, status and flag.
    nlohmann::json subscriptionObject(const LocalSubscription& sub, const std::string& status, std::int64_t start,
                                      std::int64_t end, bool cancelAtPeriodEnd) const;
    // A renewal invoice of `amount` for the period [start, end].
    nlohmann::json invoiceObject(const LocalSubscription& sub, const std::string& id, const std::string& reason,
                                 std::int64_t amount, std::int64_t start, std::int64_t end, const std::string& description,
                                 std::int64_t endingCredit) const;

    LocalRepository store_;
    const Clock& clock_;
    EventSink& events_;
    std::string publicUrl_;
    std::vector<std::string> shippingCountries_;
};

} // namespace storefront::billing

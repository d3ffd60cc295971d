#pragma once
// What a subscription's owner (the dashboard) and staff do to it (docs/billing.md, "Subscription
// lifecycle"): cancel at the period end or now, resume, preview and change the plan; and the
// reminder job's mails. Every action claims the subscription first (billing/orders/record_claims.h:
// a second action meanwhile is 409 action_in_progress), is checked against the lifecycle table
// (billing/subscriptions/lifecycle.h) and priced from the row as of the claim, asks the provider
// with nothing held, and is written (with its audit entry and mail, in one transaction, as a
// compare-and-set on the state it decided from) only once the provider has agreed. The provider's
// events then bring the same state again, which changes nothing. `key`: the client's
// Idempotency-Key; the same key again answers without acting again.
#include "audit/audit.h"
#include "billing/books/invoice_repository.h"
#include "billing/orders/record_claims.h"
#include "billing/orders/subscription_repository.h"
#include "billing/subscriptions/invoice_refunds.h"
#include "billing/subscriptions/lifecycle.h"
#include "billing/provider/payment_provider.h"
#include "billing/subscriptions/proration.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace storefront::billing {

class SubscriptionService {
public:
    SubscriptionService(db::Database& db, PaymentProvider& provider, mail::Outbox& outbox, InvoiceRepository& invoices,
                        std::string publicUrl, int graceDays)
        : db_(db), provider_(provider), outbox_(outbox), publicUrl_(std::move(publicUrl)), graceDays_(graceDays),
          refundBook_(outbox, invoices, publicUrl_) {}

    // `ownerId`: the caller's user id (another user's subscription is 404); nullopt for staff.
    // `reason`: staff's words (required of staff, audited).
    void cancel(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id, bool atPeriodEnd,
                const std::optional<std::string>& reason, const std::optional<std::string>& key = std::nullopt);
    void resume(const audit::Actor& actor, const std::optional<std::string>& ownerId, const std::string& id,
                const std::optional<std::string>& key = std::nullopt);

    struct Preview {
        Proration proration;
        std::string currency;
        PlanInfo plan;
    };
    // What switching to `planId` costs now. 422 for a plan of another product or currency (or none),
    // 409 already_on_plan, 409 past_due (pay first), 409 invalid_transition (ended, or ending).
    Preview preview(const std::string& ownerId, const std::string& id, const std::string& planId);
    void changePlan(const audit::Actor& actor, const std::string& ownerId, const std::string& id, const std::string& planId,
                    const std::optional<std::string>& key = std::nullopt);

    // Staff: refunds `amount` (minor units) of the subscription's latest paid invoice through the
    // provider (docs/billing.md, "Subscription refunds"). 409 nothing_to_refund / already_refunded,
    // 422 for more than is left; a repeat with the same `clientKey` answers the first refund again.
    // 502 when the provider fails: the refund waits as requested and the same key sends it again.
    SubscriptionRefund refund(const audit::Actor& actor, const std::string& id, std::int64_t amount,
                              const std::optional<std::string>& reason, const std::optional<std::string>& clientKey);

    // Staff's list (GET /api/v1/admin/subscriptions), one of it, and the list whole for an export;
    // each item with the actions the lifecycle table allows it now.
    db::Page<AdminSubscription> staffList(const std::optional<std::string>& status, const std::optional<std::string>& search,
                                          const db::PageQuery& page);
    std::optional<AdminSubscription> staffFind(const std::string& id);
    std::int64_t staffExport(const std::optional<std::string>& status, const std::optional<std::string>& search,
                             const std::function<void(const AdminSubscription&)>& onRow) {
        return subscriptions_.adminExport(db_, status, search, onRow);
    }
    db::Database& database() { return db_; }

    // The reminder job: payment_reminder three days before a grace period ends, trial_ending three
    // days before a trial's first charge; each once (subscription_notices).
    void remindDue();

private:
    // The parts every action shares (subscription_service.cpp); each action is its own file:
    // subscription_cancel.cpp (cancel, resume), change_plan.cpp, subscription_refund.cpp.
    // 409 invalid_transition unless the lifecycle table allows `action` now.
    static void requireAllowed(const SubscriptionRow& row, SubscriptionAction action, std::int64_t now);
    // The row as an audit entry's before/after.
    static nlohmann::json stateOf(const SubscriptionRow& row);
    // 502 payment_provider_error: the provider did not confirm; nothing changed (logged as `what`).
    [[noreturn]] static void failedAtProvider(const std::string& what, const ProviderError& e);
    static std::optional<std::int64_t> epochOf(const std::optional<std::string>& timestamp);

    SubscriptionRow owned(const std::optional<std::string>& ownerId, const std::string& id);
    Preview previewOf(Poco::Data::Session& s, const SubscriptionRow& row, const std::string& planId);
    // The subscription locked and claimed for `action` in `tx` (404 for another owner's), as of
    // the claim; no claim when `key` names the same action done already.
    struct Claimed {
        SubscriptionRow row;
        std::optional<Claim> claim;
    };
    Claimed claimFor(db::Tx& tx, const std::optional<std::string>& ownerId, const std::string& id, const char* action,
                     const std::optional<std::string>& key, const nlohmann::json& request);
    // The action's outcome, written as a compare-and-set on `from` (the row as of the claim). When
    // the row changed meanwhile and `shows` says it does not already hold the outcome (the
    // provider's own event can bring it first), the change is still written, for the provider has
    // acted, and the mismatch is logged as an error: never a silent success. Finishes the claim.
    void writeOutcome(db::Tx& tx, const std::string& id, const SubscriptionRow& from, const SubscriptionChange& change,
                      const Claim& claim, const std::function<bool(const SubscriptionRow&)>& shows);

    db::Database& db_;
    PaymentProvider& provider_;
    mail::Outbox& outbox_;
    std::string publicUrl_;
    int graceDays_;
    SubscriptionRepository subscriptions_;
    SubscriptionPaymentRepository payments_;
    SubscriptionRefundBook refundBook_;
    RecordClaims claims_;
};

} // namespace storefront::billing

#pragma once
// The provider's news about subscriptions, applied inside the event inbox's transaction
// (billing/event_processor.h stores each event once and hands these over):
// * customer.subscription.created / updated / deleted: status, period, trial, the cancel flag;
// * invoice.paid: the money into the ledger, the tax invoice, active again (a past-due one
//   recovers at once), the renewal receipt;
// * invoice.payment_failed: past due from the first failure of the renewal (the grace period
//   starts), and the payment_failed mail once per provider invoice however often it is repeated.
// Events may arrive in any order: the provider's event time decides, the period end only moves on,
// and an ended subscription stays ended.
#include "billing/books/invoice_repository.h"
#include "billing/books/ledger_repository.h"
#include "billing/provider/payment_customer_repository.h"
#include "billing/orders/subscription_repository.h"
#include "billing/subscriptions/payment_repository.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::billing {

// One provider event as the inbox hands it on.
struct ProviderEvent {
    const std::string& provider;
    const std::string& type;
    const nlohmann::json& object; // data.object
    const std::string& at;        // the provider's time of the event
    const std::string& eventId;
};

class SubscriptionEvents {
public:
    // `graceDays`: STOREFRONT_PAST_DUE_GRACE_DAYS (the payment_failed mail names the day access ends).
    SubscriptionEvents(db::Database& db, mail::Outbox& outbox, std::string publicUrl, InvoiceRepository& invoices, int graceDays)
        : outbox_(outbox), publicUrl_(std::move(publicUrl)), invoices_(invoices), graceDays_(graceDays), customers_(db) {}

    // customer.subscription.*: false when nothing of ours changed.
    bool applySubscription(db::Tx& tx, const ProviderEvent& event, bool deleted);
    // invoice.paid / invoice.payment_failed.
    bool applyInvoice(db::Tx& tx, const ProviderEvent& event);
    // invoice_payment.paid: which payment paid an invoice (a refund goes back through it), when the
    // invoice itself did not say.
    bool applyInvoicePayment(db::Tx& tx, const ProviderEvent& event);
    // checkout.session.completed in subscription mode: makes sure the subscription exists even
    // before its own events arrive. It claims no event time, so those events still apply in full.
    struct Link {
        std::string provider, providerId, userId, productId;
        std::optional<std::string> customerId, planId;
        bool paid = false;
    };
    void link(db::Tx& tx, const Link& link);

private:
    void insert(db::Tx& tx, NewSubscription subscription);
    bool insertFromProvider(db::Tx& tx, const ProviderEvent& e, const std::string& providerId, NewSubscription n);
    // The money of a paid subscription invoice: first payments and renewals alike.
    bool recordPayment(db::Tx& tx, const ProviderEvent& e, const std::optional<SubscriptionRow>& row);
    // The tax invoice of a paid subscription invoice, and a renewal's receipt.
    bool issueInvoice(db::Tx& tx, const ProviderEvent& e, const std::optional<SubscriptionRow>& row);
    bool paid(db::Tx& tx, const ProviderEvent& e, const SubscriptionRow& row);
    bool failed(db::Tx& tx, const ProviderEvent& e, const SubscriptionRow& row);

    mail::Outbox& outbox_;
    std::string publicUrl_;
    InvoiceRepository& invoices_;
    int graceDays_;
    PaymentCustomerRepository customers_;
    SubscriptionRepository subscriptions_;
    LedgerRepository ledger_;
    SubscriptionPaymentRepository payments_;
};

} // namespace storefront::billing

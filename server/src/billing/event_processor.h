#pragma once
// The payment-event inbox. Every provider event (Stripe's webhook, or the local test provider
// in-process) comes through ingest(): it is stored under its unique id in the same transaction as
// its effect, so a duplicate delivery changes nothing, and its effects are written so that events
// arriving in any order end in the same state (docs/billing.md, "Rules the server enforces").
#include "billing/books/invoice_repository.h"
#include "billing/books/ledger_repository.h"
#include "billing/books/refund_book.h"
#include "billing/orders/checkout_repository.h"
#include "billing/provider/payment_customer_repository.h"
#include "billing/orders/order_repository.h"
#include "billing/orders/payment_match.h"
#include "billing/provider/event_sink.h"
#include "billing/subscriptions/invoice_refunds.h"
#include "billing/subscriptions/subscription_events.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace storefront::billing {

// The payload is not a provider event (no id, type, created or data.object): answered 400.
class MalformedEvent : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class EventProcessor : public EventSink {
public:
    enum class Outcome { Applied, Ignored, Duplicate };

    // `invoices`: the module's one invoice repository (payments issue their tax invoices with it).
    // `graceDays`: STOREFRONT_PAST_DUE_GRACE_DAYS.
    EventProcessor(db::Database& db, mail::Outbox& outbox, std::string publicUrl, InvoiceRepository& invoices, int graceDays)
        : db_(db), outbox_(outbox), publicUrl_(std::move(publicUrl)), checkouts_(db), customers_(db),
          refunds_(db, outbox, invoices, publicUrl_), invoices_(invoices), subscriptionEvents_(db, outbox, publicUrl_, invoices, graceDays),
          subscriptionRefunds_(outbox, invoices, publicUrl_) {}

    // Stores and applies one event from `provider` ("stripe" | "local"). Throws MalformedEvent;
    // any other exception means nothing was stored and the provider should deliver it again.
    Outcome ingest(const std::string& provider, const std::string& payload);
    void deliver(const std::string& provider, const std::string& payload) override { ingest(provider, payload); }

private:
    using Event = ProviderEvent;
    bool apply(db::Tx& tx, const Event& event);

    std::optional<Checkout> findCheckout(db::Tx& tx, const std::string& provider, const nlohmann::json& session);
    bool checkoutCompleted(db::Tx& tx, const Event& event);
    void markPaid(db::Tx& tx, const Event& event, const Checkout& checkout);
    void recordDuplicatePayment(db::Tx& tx, const Event& event, const Checkout& checkout, const OrderState& state);
    void issueOrderInvoice(db::Tx& tx, const Event& event, const Checkout& checkout);
    bool markUnpaid(db::Tx& tx, const Event& event, const Checkout& checkout);
    void confirm(db::Tx& tx, const std::string& orderId);
    // The money of a paid order (checkout.session.completed in payment mode, a payment link) enters the ledger.
    void recordOrderPayment(db::Tx& tx, const Event& event, const std::string& orderId);
    std::optional<std::string> guestOrder(db::Tx& tx, const std::string& provider, const nlohmann::json& session);


    db::Database& db_;
    mail::Outbox& outbox_;
    std::string publicUrl_;
    CheckoutRepository checkouts_;
    PaymentCustomerRepository customers_;
    OrderRepository orders_;
    LedgerRepository ledger_;
    RefundBook refunds_;
    InvoiceRepository& invoices_;
    SubscriptionEvents subscriptionEvents_;
    SubscriptionRefundBook subscriptionRefunds_;
};

const char* outcomeName(EventProcessor::Outcome outcome);

// The customer's "Order {number} confirmed" mail (kind order_confirmation) with its tax invoice;
// no recipient when the order has no usable email. Every payment sends it, Mark as paid too.
mail::MailMessage orderConfirmation(const OrderSummary& order, const std::optional<InvoiceSummary>& invoice,
                                    const std::string& publicUrl);

} // namespace storefront::billing

#pragma once
// The staff's side of orders and subscriptions (docs/billing.md, "Staff decisions and late
// payments"): the lists, one order with its items, history and late payments, and a status change.
// A status change is one transaction with its history row and audit entry. Cancelling gives the
// reservation back exactly once (the checkout's guarded stock_state) and expires an open checkout:
// in our rows at once, at the provider after the commit (Stripe: its expire call; the local provider
// keeps its state in our rows).
#include "audit/audit.h"
#include "billing/checkout_repository.h"
#include "billing/order_repository.h"
#include "billing/ledger_repository.h"
#include "billing/payment_provider.h"
#include "billing/refund_book.h"
#include "billing/subscription_repository.h"
#include "db/database.h"
#include "mail/mail_message.h"
#include "mail/outbox.h"

#include <optional>
#include <string>

namespace storefront::billing {

bool isOrderStatus(const std::string& status);

class OrderAdmin {
public:
    OrderAdmin(db::Database& db, PaymentProvider& provider, mail::Outbox& outbox, InvoiceRepository& invoices, std::string publicUrl)
        : db_(db), provider_(provider), outbox_(outbox), publicUrl_(std::move(publicUrl)), checkouts_(db),
          book_(db, outbox, invoices, publicUrl_) {}

    db::Page<AdminOrder> orders(const AdminOrderFilter& filter, const db::PageQuery& page);
    std::optional<AdminOrderDetail> order(const std::string& id);
    db::Page<AdminSubscription> subscriptions(const std::optional<std::string>& status, const std::optional<std::string>& search,
                                              const db::PageQuery& page);
    // The same lists whole, for an export: each row handed to `onRow` as it is read (keyset pages).
    std::int64_t exportOrders(const AdminOrderFilter& filter, const std::function<void(const AdminOrder&)>& onRow) {
        return orders_.adminExport(db_, filter, onRow);
    }
    std::int64_t exportSubscriptions(const std::optional<std::string>& status, const std::optional<std::string>& search,
                                     const std::function<void(const AdminSubscription&)>& onRow) {
        return subscriptions_.adminExport(db_, status, search, onRow);
    }
    db::Database& database() { return db_; }

    // Sets the order's status (one of isOrderStatus). 404 order_not_found; 409 insufficient_stock
    // when reinstating a cancelled order whose stock has gone meanwhile. The same status again
    // changes nothing. Returns the order as it now is.
    // Shipped (docs/billing.md, "Shipping and fulfilment"): `tracking` (carrier and tracking number,
    // either optional, only with status shipped) is stored on the order and the customer is mailed
    // "Your order ... has shipped" in the same transaction. Shipped again with other tracking
    // corrects it (and mails the correction); the same tracking again changes nothing.
    struct Tracking {
        std::optional<std::string> carrier, trackingNumber;
    };
    AdminOrderDetail changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                  const std::optional<std::string>& note = std::nullopt, const Tracking& tracking = {});

    struct RefundInput {
        std::int64_t amount = 0; // minor units, > 0
        std::optional<std::string> reason;
        bool restock = false;
        std::optional<std::string> clientKey; // the request's Idempotency-Key
    };
    // Refunds part or all of a paid order (docs/billing.md, "Refunds"). The refund row is written
    // (and committed) first; its id is the provider's idempotency key, so a retry of a refund whose
    // answer never came reuses the row and the provider returns the same refund. Then the provider
    // is asked, and its answer settles the row, the ledger, the order and the audit entry in one
    // transaction. 404 order_not_found; 409 order_not_refundable / refund_in_progress /
    // idempotency_key_reused; 422 amount over what is left; 502 when the provider fails or refuses.
    AdminOrderDetail refund(const audit::Actor& actor, const std::string& id, const RefundInput& input);

private:
    db::Database& db_;
    PaymentProvider& provider_;
    mail::Outbox& outbox_;
    std::string publicUrl_;
    CheckoutRepository checkouts_;
    OrderRepository orders_;
    SubscriptionRepository subscriptions_;
    LedgerRepository ledger_;
    RefundBook book_;
};

// The customer's "Your order {number} has shipped" mail (kind order_shipped); no recipient when the
// order has no usable email.
mail::MailMessage shippedMail(const AdminOrderDetail& order, const std::string& publicUrl);

nlohmann::json toJson(const AdminOrder& order);
nlohmann::json toJson(const AdminOrderDetail& detail);
nlohmann::json toJson(const Refund& refund);
nlohmann::json toJson(const AdminSubscription& subscription);

} // namespace storefront::billing

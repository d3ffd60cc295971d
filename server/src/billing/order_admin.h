#pragma once
// The staff's side of orders (docs/billing.md, "Staff decisions and late
// payments"): the lists, one order with its items, history and late payments, and a status change.
// A status change is one transaction with its history row and audit entry. An action that asks the
// provider (Cancel order, a refund) claims the order first (billing/orders/record_claims.h): while
// it is in flight every other action on the order (ship, complete, mark as paid, another refund, the
// customer's cancel) is 409 action_in_progress. Cancelling gives the
// reservation back exactly once (the checkout's guarded stock_state) and expires an open checkout:
// in our rows at once, at the provider after the commit (Stripe: its expire call; the local provider
// keeps its state in our rows).
#include "audit/audit.h"
#include "billing/books/ledger_repository.h"
#include "billing/books/refund_book.h"
#include "billing/orders/checkout_repository.h"
#include "billing/orders/order_repository.h"
#include "billing/orders/record_claims.h"
#include "billing/provider/payment_provider.h"
#include "db/database.h"
#include "mail/mail_message.h"
#include "mail/outbox.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace storefront::billing {

bool isOrderStatus(const std::string& status);

// The payment provider name of money staff recorded by hand (Mark as paid): a bank transfer.
inline constexpr const char* kManualPayment = "manual";


// The history note of a customer's own cancellation.
inline constexpr const char* kCancelledByCustomerNote = "Cancelled by the customer before paying";

class OrderAdmin {
public:
    OrderAdmin(db::Database& db, PaymentProvider& provider, mail::Outbox& outbox, InvoiceRepository& invoices, std::string publicUrl)
        : db_(db), provider_(provider), outbox_(outbox), invoices_(invoices), publicUrl_(std::move(publicUrl)), checkouts_(db),
          book_(db, outbox, invoices, publicUrl_) {}

    db::Page<AdminOrder> orders(const AdminOrderFilter& filter, const db::PageQuery& page);
    std::optional<AdminOrderDetail> order(const std::string& id);
    db::Database& database() { return db_; }
    // The same list whole, for an export: each row handed to `onRow` as it is read (keyset pages).
    std::int64_t exportOrders(const AdminOrderFilter& filter, const std::function<void(const AdminOrder&)>& onRow) {
        return orders_.adminExport(db_, filter, onRow);
    }

    // Sets the order's status (one of isOrderStatus) along the lifecycle table's staff rows
    // (billing/orders/lifecycle.h; anything else is 409 invalid_transition and changes nothing).
    // 404 order_not_found; 409 insufficient_stock when reinstating a cancelled order whose stock
    // has gone meanwhile. The same status again changes nothing. Returns the order as it now is.
    // Mark as paid (pending -> paid, money received outside the provider) needs `paymentReference`
    // (422 without it): the payment enters the ledger as manual_payment, the tax invoice is issued
    // and the customer gets the order confirmation, as for any payment.
    // Shipped (docs/billing.md, "Shipping and fulfilment"): `tracking` (carrier and tracking number,
    // either optional, only with status shipped) is stored on the order and the customer is mailed
    // "Your order ... has shipped" in the same transaction. Shipped again with other tracking
    // corrects it (and mails the correction); the same tracking again changes nothing.
    // Mark as paid of an order with goods to ship needs the address they go to, unless it has one
    // (422 on shipping_address); given, it replaces the one on file (audited with the move).
    struct Tracking {
        std::optional<std::string> carrier, trackingNumber;
    };
    struct Payment {
        std::string reference;                  // the bank transfer's reference, say
        std::optional<ShippingAddress> address; // where its goods go
    };
    AdminOrderDetail changeStatus(const audit::Actor& actor, const std::string& id, const std::string& status,
                                  const std::optional<std::string>& note = std::nullopt, const Tracking& tracking = {},
                                  const std::optional<Payment>& payment = std::nullopt);

    // Staff set or correct where an order's goods go (PUT /api/v1/admin/orders/{id}/shipping-address),
    // while it is pending or paid: once shipped (or ended) 409 address_locked; a digital order 409
    // nothing_to_ship. A history row and the audit entry order.shipping_address_changed; the same
    // address again changes nothing.
    AdminOrderDetail setShippingAddress(const audit::Actor& actor, const std::string& id, const ShippingAddress& address);

    // Cancel order (POST /api/v1/admin/orders/{id}/cancel, docs/billing.md, "Order lifecycle"). A
    // paid order: what is left is refunded through the provider (one refund, one credit note), the
    // stock returned when `restock`, the order cancelled, the customer mailed order_cancelled
    // naming the refund, and the cancellation has its history row and audit entry with `reason`.
    // A provider failure is 502 and the order stays as it was (the refund waits, requested, and the
    // same cancel again sends it again). A pending order is cancelled as PATCH cancels it. 409
    // invalid_transition from any other status; 409 order_not_refundable for money that did not
    // come through the provider; 409 refund_in_progress while another refund waits.
    // The order is claimed from the check of its status to the cancellation's write: a shipment or
    // completion meanwhile is refused, so a shipped order is never cancelled or restocked.
    AdminOrderDetail cancel(const audit::Actor& actor, const std::string& id, const std::string& reason, bool restock);

    // Bulk "Mark as shipped" (docs/backoffice.md, "Bulk shipping"): each order exactly as
    // changeStatus(shipped) with `carrier` and no tracking number, in its own transaction (its own
    // history row, audit entry and customer mail), and only from paid: an order that is not paid,
    // shipped already, completed, cancelled or refunded is left as it is and reported with why.
    // Ids are taken once each, in the order given.
    struct BulkShipResult {
        std::string id;
        std::optional<std::string> orderNumber;
        bool ok = false;
        std::string code, message; // when not ok
    };
    std::vector<BulkShipResult> bulkShip(const audit::Actor& actor, const std::vector<std::string>& ids,
                                         const std::optional<std::string>& carrier);
    // The customer's own cancellation of their unpaid order (POST /api/v1/account/orders/{id}/cancel),
    // the staff's cancellation path: the reservation back exactly once, the open checkout expired in
    // our rows at once and at the provider after the commit. Recorded as source system with the
    // customer as the actor (history and audit), so a payment that still arrives is a late payment,
    // as after staff cancelled. 404 order_not_found for an order that is not theirs; 409
    // order_not_cancellable once paid (or its checkout completed); a cancelled order stays as it is.
    void cancelForCustomer(const audit::Actor& actor, const std::string& userId, const std::string& id);

    struct RefundInput {
        std::optional<std::int64_t> amount; // minor units, > 0; with lines, at most (and by default) theirs
        std::optional<std::string> reason;
        bool restock = false;
        std::optional<std::string> clientKey; // the request's Idempotency-Key
        std::vector<RefundLine> lines;        // refunds by line: which lines, how many of each
        // Returns this late payment (one that arrived for the order already paid another way)
        // instead of the order's money: at most what is left of it, no lines, no restock, no
        // credit note; the order keeps its status (docs/billing.md, "A payment for an order
        // already paid").
        std::optional<std::string> latePaymentId;
    };
    // Refunds part or all of a paid order (docs/billing.md, "Refunds"). The refund row is written
    // (and committed) first; its id is the provider's idempotency key, so a retry of a refund whose
    // answer never came reuses the row and the provider returns the same refund. Then the provider
    // is asked, and its answer settles the row, the ledger, the order and the audit entry in one
    // transaction. 404 order_not_found; 409 order_not_refundable / refund_in_progress /
    // idempotency_key_reused; 422 amount over what is left; 502 when the provider fails or refuses.
    AdminOrderDetail refund(const audit::Actor& actor, const std::string& id, const RefundInput& input);

private:
    // The provider request returning RefundInput::latePaymentId (its refund row written, requested);
    // nullopt for a repeat of a return made already (same Idempotency-Key).
    std::optional<RefundRequest> returnRequest(db::Tx& tx, const audit::Actor& actor, const std::string& id, const RefundInput& in);
    // The order as staff see it: OrderRepository's detail with its refunds from the books.
    template <class Source>
    std::optional<AdminOrderDetail> detail(Source& source, const std::string& id) {
        auto d = orders_.adminFind(source, id);
        if (!d) return d;
        d->refunds = ledger_.refundsOf(source, id);
        const auto refunded = ledger_.refundedQuantities(source, id);
        for (auto& item : d->items)
            if (auto it = refunded.find(item.id); it != refunded.end()) item.refundedQuantity = it->second;
        describeActions(*d);
        return d;
    }
    // What can still be refunded here: for an order paid through this provider (and not only
    // pending or cancelled unpaid), the total less the refunds that count and those still waiting;
    // 0 otherwise.
    void describeActions(AdminOrderDetail& detail) const;
    // Paid through this server's payment provider: it can refund the money (Refund, Cancel order).
    bool paidHere(const AdminOrder& order) const;
    // changeStatus, with `guard` run on the locked order before anything changes (it throws to refuse).
    AdminOrderDetail transition(const audit::Actor& actor, const std::string& id, const std::string& status,
                                const std::optional<std::string>& note, const Tracking& tracking,
                                const std::optional<Payment>& payment,
                                const std::function<void(const AdminOrderDetail&)>& guard);
    // Mark as paid's books: the manual payment in the ledger, the tax invoice, the confirmation.
    void recordManualPayment(db::Tx& tx, const std::string& id, const OrderState& state, const std::string& reference);
    // Gives back the order's reserved stock (exactly once: the reservation's guard).
    void releaseStock(db::Tx& tx, const std::string& id);
    // After the commit: the provider's sessions of checkouts expireOpen closed in our rows.
    void expireAtProvider(const std::vector<std::pair<std::string, std::optional<std::string>>>& toExpire,
                          const std::string& id);

    RecordClaims claims_;
    db::Database& db_;
    PaymentProvider& provider_;
    mail::Outbox& outbox_;
    InvoiceRepository& invoices_;
    std::string publicUrl_;
    CheckoutRepository checkouts_;
    OrderRepository orders_;
    LedgerRepository ledger_;
    RefundBook book_;
};

// The customer's "Your order {number} has shipped" mail (kind order_shipped); no recipient when the
// order has no usable email.
mail::MailMessage shippedMail(const AdminOrderDetail& order, const std::string& publicUrl);

// The customer's "Your order {number} has been cancelled" mail (kind order_cancelled), naming the
// refund and its credit note; no recipient when the order has no usable email.
mail::MailMessage cancelledMail(const AdminOrderDetail& order, const std::string& reason, std::int64_t refunded,
                                const std::string& publicUrl);

nlohmann::json toJson(const AdminOrder& order);
nlohmann::json toJson(const AdminOrderDetail& detail);
nlohmann::json toJson(const Refund& refund);
nlohmann::json toJson(const OrderAdmin::BulkShipResult& result);

} // namespace storefront::billing

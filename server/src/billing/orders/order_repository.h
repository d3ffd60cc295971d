#pragma once
// SQL for orders and their lines.
#include "billing/orders/lifecycle.h"
#include "billing/orders/refund.h"
#include "billing/orders/shipping.h"
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct NewOrder {
    std::optional<std::string> userId; // none for a guest order (a payment link)
    std::string status;                // pending, or paid for a guest order
    std::int64_t totalAmount = 0;
    std::string currency;
    std::optional<std::string> customerEmail;
    std::optional<std::string> providerCheckoutId; // "<provider>:<session id>" of a guest order
    std::string source = "system";                 // who creates it: system (a checkout) | provider (a payment link)
};

struct NewOrderItem {
    std::optional<std::string> productId;
    std::optional<std::string> planId;
    std::string productName;
    std::int64_t quantity = 1;
    std::int64_t unitAmount = 0;
};

// An order with its lines, as the confirmation mail and the dashboard show it.
struct OrderLine {
    std::string productName;
    std::int64_t quantity = 0;
    std::int64_t unitAmount = 0;
};
// The checkout an order was started from (GET /api/v1/account/orders shows whether it can still be paid).
struct OrderCheckout {
    std::string status; // creating | open | completed | expired
    std::optional<std::string> url;
    std::string expiresAt, updatedAt;
};
struct OrderSummary {
    std::string id, orderNumber, status, currency, createdAt;
    std::int64_t totalAmount = 0;
    std::int64_t refundedAmount = 0; // pending and succeeded refunds
    std::optional<std::string> customerEmail;
    std::optional<std::string> invoiceNumber; // its tax invoice, once paid
    std::vector<OrderLine> lines;
    Fulfilment fulfilment; // shipping address snapshot, carrier and tracking
    std::optional<OrderCheckout> checkout; // forUser only; none for a payment link's order
};

// Who changed an order's status (order_status_history.source, orders.status_source).
namespace source {
inline constexpr const char* kStaff = "staff";
inline constexpr const char* kProvider = "provider";
inline constexpr const char* kSystem = "system";
inline constexpr const char* kCustomer = "customer"; // the customer's own cancel of an unpaid order
} // namespace source

// The order row as a status change sees it, read under the row's lock.
struct OrderState {
    std::string status;
    std::optional<std::string> statusSource;
    bool paidAfterCancellation = false;
    std::int64_t totalAmount = 0;
    std::string currency;
    std::optional<std::string> userId; // the customer's (none for a guest order)
};

struct StatusChange {
    std::string orderId;
    std::optional<std::string> from;
    std::string to;
    std::string source; // source::kStaff | kProvider | kSystem | kCustomer
    std::optional<std::string> actorId, actorEmail, note;
};

// Money that arrived after the order was settled: for an order that was cancelled
// (after_cancellation) or that was paid already another way (already_paid, migration 0029).
namespace late_payment_reason {
inline constexpr const char* kAfterCancellation = "after_cancellation";
inline constexpr const char* kAlreadyPaid = "already_paid";
} // namespace late_payment_reason

struct LatePayment {
    std::string orderId;
    std::int64_t amount = 0;
    std::string currency, provider, providerReference;
    std::optional<std::string> eventId;
    std::string reason = late_payment_reason::kAfterCancellation;
};

// A late payment of the order, with what was returned of it (refunds with late_payment_id that count).
struct LatePaymentRow {
    std::string id, orderId, currency, provider, providerReference, reason;
    std::int64_t amount = 0, returned = 0;
};

// The staff's view of orders (GET /api/v1/admin/orders, /orders/{id}).
struct AdminOrderFilter {
    std::optional<std::string> status;  // pending | paid | shipped | completed | cancelled | refunded | paid_after_cancellation
    std::optional<std::string> q;       // an order number or part of the customer's email
    bool disputed = false;              // only orders a dispute was opened for
    bool amountMismatch = false;        // only orders a payment of another amount or currency arrived for
    bool paymentToReturn = false;       // only orders paid twice, with a payment still to return
    bool toShip = false;                // only paid orders with something to ship, not shipped yet (orders/shippable.h)
};
struct AdminOrder {
    std::string id, orderNumber, status, currency, createdAt, updatedAt;
    std::optional<std::string> userId, customerEmail;
    std::int64_t totalAmount = 0;
    bool paidAfterCancellation = false;
    std::int64_t refundedAmount = 0; // pending and succeeded refunds
    bool disputed = false;
    bool amountMismatch = false; // a payment arrived whose amount or currency is not the order's (orders/payment_match.h)
    bool paymentToReturn = false; // a payment arrived for the order already paid another way, not yet returned
    bool hasPhysical = false; // a line of a physical product (or a shipping address): it can ship
    std::optional<std::string> paymentProvider; // whose payment it is: stripe | local | manual
    bool providerPaid = false;                  // the provider's payment is known (it can refund it)
    bool cancellable = false; // Cancel order applies: paid through this server's provider (OrderAdmin sets it)
    Fulfilment fulfilment; // in the detail's JSON (the list stays lean)
};
struct AdminOrderItem {
    std::string id;
    std::optional<std::string> productId;
    std::string productName;
    std::int64_t quantity = 0, unitAmount = 0;
    std::int64_t refundedQuantity = 0;  // in refunds that count (the books fill it: OrderAdmin)
    std::int64_t restockedQuantity = 0; // returned to stock
};
struct AdminHistoryEntry {
    std::string at, to, source;
    std::optional<std::string> from, actorEmail, note;
};
struct AdminLatePayment {
    std::string at, currency, provider;
    std::int64_t amount = 0;
    std::optional<std::string> providerReference;
    std::string id, reason;
    std::int64_t returned = 0; // of an already_paid payment: what went back to the payer
};
struct AdminInvoiceRef {
    std::string number, kind; // invoice | credit_note
    std::int64_t totalAmount = 0;
};
struct AdminOrderDetail {
    AdminOrder order;
    std::vector<AdminInvoiceRef> invoices; // its tax invoice and credit notes, in issue order
    std::vector<AdminOrderItem> items;
    std::vector<AdminHistoryEntry> history; // oldest first
    std::vector<AdminLatePayment> latePayments;
    std::vector<Refund> refunds; // oldest first
    std::int64_t refundableAmount = 0; // what can still be refunded (the total less refunds that count or wait)
};

class OrderRepository {
public:
    // Inserts the order under a fresh order number (retrying the rare clash); returns its id, or
    // nullopt when a guest order for the same provider checkout exists already.
    std::optional<std::string> insert(db::Tx& tx, const NewOrder& order);
    void insertItem(db::Tx& tx, const std::string& orderId, const NewOrderItem& item);
    // Locks the order row for the rest of the transaction (a touch: both engines, every status
    // change of the order queues behind it) and returns it; nullopt for an unknown id.
    std::optional<OrderState> lock(db::Tx& tx, const std::string& orderId);
    // What the lifecycle table needs besides the status (billing/orders/lifecycle.h).
    OrderFacts facts(db::Tx& tx, const std::string& orderId);
    // Sets the status with who set it, and the paid-after-cancellation flag, as a compare-and-set
    // on `from`: false (nothing written) when the order is not `from`. Only lifecycle's moveOrder()
    // calls it: every status change is checked against the table first.
    bool setStatus(db::Tx& tx, const std::string& orderId, const std::string& from, const std::string& status,
                   const std::string& source, bool paidAfterCancellation);
    // Appends a row to the order's history (seq = the next number for the order).
    void addHistory(db::Tx& tx, const StatusChange& change);
    // Whether a payment event has already made the order paid (its money is known, not late).
    bool paidByProvider(db::Tx& tx, const std::string& orderId);
    // Stores money that arrived for a cancelled order; false when that payment is stored already.
    bool addLatePayment(db::Tx& tx, const LatePayment& payment);
    // The order's late payment `id` with what has been returned of it; nullopt for another order's.
    std::optional<LatePaymentRow> latePayment(db::Tx& tx, const std::string& orderId, const std::string& id);
    // Is `reference` an already_paid late payment of some order at `provider`?
    bool isReturnablePayment(db::Tx& tx, const std::string& provider, const std::string& reference);
    // Sets the payments-to-return flag from the already_paid payments not yet returned in full.
    void updatePaymentToReturn(db::Tx& tx, const std::string& orderId);
    // Flags the order: a payment arrived whose amount or currency is not its own
    // (orders/payment_match.h); false when it was flagged already.
    bool flagAmountMismatch(db::Tx& tx, const std::string& orderId);
    // The shipping address snapshot from the completed checkout; written once (false when the
    // order has one already: a repeated event changes nothing).
    bool setShippingAddress(db::Tx& tx, const std::string& orderId, const ShippingAddress& address);
    // Staff's address for the order (set or corrected before it ships): replaces the one on file.
    void replaceShippingAddress(db::Tx& tx, const std::string& orderId, const ShippingAddress& address);
    // Staff's carrier and tracking number (either may be absent); shipped_at is set the first time.
    void setTracking(db::Tx& tx, const std::string& orderId, const std::optional<std::string>& carrier,
                     const std::optional<std::string>& trackingNumber);

    // Staff reads.
    // Newest first (the page's orderBy is the repository's own).
    db::Page<AdminOrder> adminList(Poco::Data::Session& s, const AdminOrderFilter& filter, db::PageQuery page);
    // Every order of the staff list's filter, newest first, handed to `onRow` as it is read (keyset
    // pages: memory stays flat however many match); returns how many.
    std::int64_t adminExport(db::Database& db, const AdminOrderFilter& filter, const std::function<void(const AdminOrder&)>& onRow);
    // The order, its lines, invoices, history and late payments; its refunds are the books' (the
    // staff order service adds them: OrderAdmin).
    std::optional<AdminOrderDetail> adminFind(db::Tx& tx, const std::string& orderId);
    std::optional<AdminOrderDetail> adminFind(Poco::Data::Session& s, const std::string& orderId);
    std::optional<OrderSummary> find(db::Tx& tx, const std::string& orderId);
    // A page of the user's orders, newest first, every one (unpaid included), with its checkout.
    std::vector<OrderSummary> forUser(Poco::Data::Session& s, const std::string& userId, std::int64_t limit,
                                      std::int64_t offset);
    // One of the user's orders, as forUser reads it; nullopt when it is not theirs.
    std::optional<OrderSummary> findForUser(Poco::Data::Session& s, const std::string& userId, const std::string& orderId);
    // How many there are in all.
    std::int64_t countForUser(Poco::Data::Session& s, const std::string& userId);
};

} // namespace storefront::billing

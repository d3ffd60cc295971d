#pragma once
// SQL for the payments ledger, refunds and disputes (migration 0016; docs/billing.md, "The ledger,
// refunds and disputes"). The ledger holds one row per money movement with a signed amount in minor
// units (money in positive, money out negative), unique on its entry key, so writing the same
// movement again changes nothing. Every write here runs in the transaction of what caused it.
#include "billing/orders/refund.h"
#include "billing/provider/provider_money.h"
#include "db/database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

namespace ledger_kind {
inline constexpr const char* kOrderPayment = "order_payment";
inline constexpr const char* kSubscriptionPayment = "subscription_payment";
inline constexpr const char* kRefund = "refund";
inline constexpr const char* kRefundReversal = "refund_reversal";
inline constexpr const char* kDisputeLost = "dispute_lost";
inline constexpr const char* kManualPayment = "manual_payment"; // Mark as paid: a bank transfer, say
} // namespace ledger_kind

struct LedgerEntry {
    std::string entryKey; // the idempotency key: "<provider>:payment:<id>", "refund:<refund id>", ...
    std::string kind;     // ledger_kind::*
    std::int64_t amount = 0; // signed minor units
    std::string currency;    // NZD | AUD | USD
    std::string provider;
    std::optional<std::string> providerId, orderId, subscriptionId, refundId, eventId;
};

// A line of the order and how many of it a refund covers.
struct RefundLine {
    std::string orderItemId;
    std::int64_t quantity = 0;
};

// An order's line as a refund by line needs it, read under the order's lock.
struct RefundableItem {
    std::string id, productName;
    std::optional<std::string> productId;
    std::int64_t quantity = 0, unitAmount = 0, refundedQuantity = 0, restockedQuantity = 0;
};

struct NewRefund {
    std::string orderId;
    std::int64_t amount = 0;
    std::string currency;
    std::optional<std::string> reason;
    bool restock = false;
    std::string status; // requested (staff) | pending | succeeded (from the provider)
    std::string source; // staff | provider
    std::string provider;
    std::optional<std::string> providerRefundId, clientKey, actorId, actorEmail;
    std::vector<RefundLine> lines; // empty: an amount, no lines
    std::optional<std::string> latePaymentId; // returns this already_paid late payment (Refund::latePaymentId)
};

// What a refund needs to know about its order, read under the order's lock.
struct RefundableOrder {
    std::string status, currency;
    std::int64_t totalAmount = 0, refundedAmount = 0;
    std::optional<std::string> providerPaymentId, paymentProvider, customerEmail, orderNumber;
    bool restocked = false;
    bool paidAfterCancellation = false;
};

class LedgerRepository {
public:
    // Writes the entry; false when its entry key is there already (nothing changes).
    bool add(db::Tx& tx, const LedgerEntry& entry);

    // The order's payment at the provider, as the payment event told it.
    void setProviderPayment(db::Tx& tx, const std::string& orderId, const std::string& provider,
                            const std::string& providerPaymentId);
    std::optional<RefundableOrder> refundable(db::Tx& tx, const std::string& orderId);
    // The order whose payment this is (the payment intent, or the checkout session for the local provider).
    std::optional<std::string> orderOfPayment(db::Tx& tx, const std::string& provider, const std::string& paymentId);

    std::string insertRefund(db::Tx& tx, const NewRefund& refund);
    std::optional<Refund> refund(db::Tx& tx, const std::string& id);
    std::optional<Refund> refundByClientKey(db::Tx& tx, const std::string& orderId, const std::string& clientKey);
    std::optional<Refund> refundByProviderId(db::Tx& tx, const std::string& provider, const std::string& providerRefundId);
    // The oldest refund of the order still waiting for the provider's answer.
    std::optional<Refund> requestedRefund(db::Tx& tx, const std::string& orderId);
    // A refund the provider told us about without its id (a charge's refunded total), not yet matched.
    std::optional<Refund> unmatchedProviderRefund(db::Tx& tx, const std::string& orderId, std::int64_t amount);
    void setRefundStatus(db::Tx& tx, const std::string& id, const std::string& status,
                         const std::optional<std::string>& providerRefundId);
    // The refunds still waiting for the provider's first answer (requested): their sum.
    std::int64_t requestedAmount(db::Tx& tx, const std::string& orderId);
    // The order's lines with what the refunds that count (requested, pending, succeeded) cover.
    std::vector<RefundableItem> refundableItems(db::Tx& tx, const std::string& orderId);
    std::map<std::string, std::int64_t> refundedQuantities(Poco::Data::Session& s, const std::string& orderId);
    std::map<std::string, std::int64_t> refundedQuantities(db::Tx& tx, const std::string& orderId);
    // The lines a refund covers (empty when it named none).
    std::vector<RefundLine> refundLines(db::Tx& tx, const std::string& refundId);
    // Records `quantity` of the line as back in stock, at most what is left of it (its
    // restocked_quantity rises). Returns how many, and the line's product, for the caller to
    // return to the product's stock through the order's checkout (CheckoutRepository::returnPart).
    struct Restocked {
        std::int64_t quantity = 0;
        std::optional<std::string> productId;
    };
    Restocked restockLine(db::Tx& tx, const std::string& orderId, const std::string& orderItemId, std::int64_t quantity);
    std::vector<Refund> refundsOf(Poco::Data::Session& s, const std::string& orderId);
    std::vector<Refund> refundsOf(db::Tx& tx, const std::string& orderId);
    // Adds `delta` to orders.refunded_amount.
    void addRefunded(db::Tx& tx, const std::string& orderId, std::int64_t delta);
    // The status a refunded order had before its refunds made it refunded (its history).
    std::optional<std::string> statusBeforeRefunded(db::Tx& tx, const std::string& orderId);
    // Marks the order restocked; false when it was already (the items go back once).
    bool markRestocked(db::Tx& tx, const std::string& orderId);

    // Disputes: stores or updates the provider's dispute and flags its order; returns the previous status.
    std::optional<std::string> upsertDispute(db::Tx& tx, const std::optional<std::string>& orderId,
                                             const std::string& provider, const std::string& disputeId,
                                             std::int64_t amount, const std::string& currency,
                                             const std::string& status, const std::optional<std::string>& reason);
    void flagDisputed(db::Tx& tx, const std::string& orderId);
};

} // namespace storefront::billing

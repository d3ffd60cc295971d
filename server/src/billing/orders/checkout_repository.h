#pragma once
// SQL for checkout sessions (one attempt to pay, with its stock reservation) and the payment-event
// inbox.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace storefront::billing {

struct Checkout {
    std::string id;
    std::optional<std::string> userId;
    std::string orderId;
    std::optional<std::string> productId;
    std::optional<std::string> planId;
    std::string mode;
    std::string status;     // creating | open | completed | expired
    std::string stockState; // none | reserved | settled | released
    std::int64_t quantity = 0;
    std::int64_t stockReserved = 0;
    std::optional<std::string> providerSessionId;
};

struct NewCheckout {
    std::string id, userId, orderId, productId;
    std::optional<std::string> planId;
    std::string mode;
    std::int64_t quantity = 1;
    std::int64_t amountTotal = 0;
    std::string currency, provider, successUrl, cancelUrl;
    std::int64_t stockReserved = 0;
    std::string stockState;
    std::string expiresAt;
    bool collectsShipping = false; // a physical product: the payment page asks for the address
    int trialDays = 0;             // subscription mode: a free trial before the first charge
};

// What the buyer's own view of a checkout needs (GET /api/v1/account/checkouts/{id}, cancel).
struct CheckoutProgress {
    std::string id, status, mode, orderNumber, orderStatus, currency;
    std::optional<std::string> productSlug, providerSessionId;
    std::int64_t totalAmount = 0;
};

// A checkout given up before the provider opened it: what to give back.
struct Released {
    std::string orderId;
    std::optional<std::string> productId;
    std::int64_t stockReserved = 0;
    bool stockReleased = false;
};

class CheckoutRepository {
public:
    explicit CheckoutRepository(db::Database& db) : db_(db) {}

    void insert(db::Tx& tx, const NewCheckout& checkout);
    // Records the provider's session; only a 'creating' row becomes open (an event may have
    // completed it already).
    void linkProviderSession(const std::string& checkoutId, const std::string& sessionId, const std::string& url);
    void setProviderSessionId(db::Tx& tx, const std::string& checkoutId, const std::string& sessionId);
    // 'creating' -> expired with its reservation released; nullopt when it was not 'creating'.
    std::optional<Released> expireUnopened(db::Tx& tx, const std::string& checkoutId);

    std::optional<Checkout> findById(db::Tx& tx, const std::string& checkoutId, const std::string& provider);
    std::optional<Checkout> findByProviderSession(db::Tx& tx, const std::string& provider, const std::string& sessionId);
    // Paid: completed, its reservation settled.
    void markCompleted(db::Tx& tx, const std::string& checkoutId);
    // An async payment method: completed, the money follows (or not) in a later event.
    void markAwaitingPayment(db::Tx& tx, const std::string& checkoutId);
    // Not paid: expired, its reservation released.
    void markExpired(db::Tx& tx, const std::string& checkoutId);

    // ---- an order's reservation, exactly once whoever gets there first (staff, the expiry job,
    // the provider's event): each is one guarded UPDATE on the checkout's stock_state ----
    struct Reservation {
        std::string productId;
        std::int64_t quantity = 0;
    };
    // reserved -> released: what the caller must give back (nothing when another got there first).
    std::vector<Reservation> releaseReservation(db::Tx& tx, const std::string& orderId);
    // released -> reserved again (staff reinstating a cancelled order): what the caller must take.
    std::vector<Reservation> reclaimReservation(db::Tx& tx, const std::string& orderId);
    // reserved or settled -> released (a refund with restock): what the caller must give back.
    std::vector<Reservation> returnStock(db::Tx& tx, const std::string& orderId);
    // Part of the order's stock of `productId` back (a refund by line): the checkout's reservation
    // shrinks by `quantity` (released when nothing is left out). False when the checkout did not
    // track that product's stock (or has less out): the caller gives nothing back.
    bool returnPart(db::Tx& tx, const std::string& orderId, const std::string& productId, std::int64_t quantity);
    // reserved -> settled (staff marked the order paid, shipped or completed by hand).
    void settleReservation(db::Tx& tx, const std::string& orderId);
    // The order's checkouts still creating or open become expired here; returns (provider, provider
    // session id) of each, for the caller to expire at the provider once committed.
    std::vector<std::pair<std::string, std::optional<std::string>>> expireOpen(db::Tx& tx, const std::string& orderId);
    // The orders of the user's checkouts still creating or open (closing the account ends them).
    std::vector<std::string> openOrdersOf(db::Tx& tx, const std::string& userId);
    // Whether a trial checkout of the product by the user is in progress or was paid (the trial
    // it would start is taken); read under the buyer's row lock.
    bool trialTaken(db::Tx& tx, const std::string& userId, const std::string& productId);
    // Paid at the provider, but the order stays as staff left it: completed, reservation untouched.
    void markCompletedOnly(db::Tx& tx, const std::string& checkoutId);

    // Whether the order's checkout was completed at the provider (paid, or an async payment on its way).
    bool completedForOrder(db::Tx& tx, const std::string& orderId);

    std::optional<CheckoutProgress> progress(const std::string& userId, const std::string& checkoutId);
    std::optional<std::string> status(const std::string& checkoutId);
    // Checkouts of `provider` still open past `cutoff`: (id, provider session id), oldest first.
    std::vector<std::pair<std::string, std::optional<std::string>>> due(const std::string& provider, const std::string& cutoff,
                                                                        int limit);

    // The inbox: stores the event unless it is there already; false for a duplicate.
    bool recordEvent(db::Tx& tx, const std::string& provider, const std::string& eventId, const std::string& type,
                     const std::string& eventAt, const std::string& payload);
    void markEventApplied(db::Tx& tx, const std::string& provider, const std::string& eventId);

private:
    db::Database& db_;
};

} // namespace storefront::billing

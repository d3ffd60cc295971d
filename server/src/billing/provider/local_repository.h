#pragma once
// SQL for the local test provider's pages: the hosted checkout's view of a checkout, and its
// billing-portal sessions.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct LocalCheckoutView {
    std::string checkoutId, status, mode, itemName, currency, successUrl, cancelUrl;
    std::int64_t quantity = 0, unitAmount = 0, amountTotal = 0;
    std::optional<std::string> interval;
    std::optional<std::int64_t> intervalCount;
    bool collectsShipping = false;
    std::int64_t trialDays = 0;
};

// Who pays a local checkout, for the events the provider sends.
struct LocalPayer {
    std::optional<std::string> userId, productId, planId, email, customerId;
};

struct LocalPortalRow {
    std::string returnUrl;
    std::optional<std::string> subscriptionId, productName, status, periodEnd;
    bool cancelAtPeriodEnd = false;
    std::string outcome = "succeeded"; // the card's outcome at the next renewal
};

// A local subscription as its renewals need it.
struct LocalSubscription {
    std::string providerId, status, userId, productId, productName;
    std::optional<std::string> planId, planName, customerId, email, periodStart, periodEnd, trialEnd;
    bool cancelAtPeriodEnd = false;
    std::int64_t amount = 0, creditBalance = 0;
    std::string currency = "NZD", unit = "month";
    std::int64_t count = 1;
    std::string outcome = "succeeded"; // the card outcome of the next renewal
};

class LocalRepository {
public:
    explicit LocalRepository(db::Database& db) : db_(db) {}

    std::optional<LocalCheckoutView> checkout(const std::string& sessionId);
    std::optional<LocalPayer> payer(const std::string& checkoutId);
    // A portal session for the local customer; false when there is no such customer.
    bool insertPortal(const std::string& token, const std::string& customerId, const std::string& returnUrl,
                      const std::string& expiresAt);
    // A live portal session with the user's local subscriptions (newest first); empty when none.
    std::vector<LocalPortalRow> portal(const std::string& token);
    std::optional<LocalSubscription> subscription(const std::string& providerId);
    // The local subscriptions whose period has ended and that have not (active or trialing: the
    // renewal job's work).
    std::vector<std::string> dueForRenewal(const std::string& now);
    void setOutcome(const std::string& providerId, const std::string& outcome);

private:
    db::Database& db_;
};

} // namespace storefront::billing

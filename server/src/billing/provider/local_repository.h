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
};

// Who pays a local checkout, for the events the provider sends.
struct LocalPayer {
    std::optional<std::string> userId, productId, planId, email, customerId;
};

struct LocalPortalRow {
    std::string returnUrl;
    std::optional<std::string> subscriptionId, productName, status, periodEnd;
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

private:
    db::Database& db_;
};

} // namespace storefront::billing

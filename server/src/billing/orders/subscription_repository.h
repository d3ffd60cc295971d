#pragma once
// SQL for subscriptions. "Live" (status active or trialing) is defined here once, as kLive, for
// every query that asks; billing/orders/rules.h has the same rule for a status already in hand.
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

struct SubscriptionRow {
    std::string id;
    std::string userId;
    std::string productId;
    std::string status;
    std::optional<std::string> eventAt;   // provider time of the event that last set it
    std::optional<std::string> periodEnd;
};

struct NewSubscription {
    std::string userId, productId, status, provider, providerId;
    std::optional<std::string> planId, customerId, periodEnd, eventAt;
    bool cancelAtPeriodEnd = false;
};

// A subscription as the customer's dashboard shows it.
struct SubscriptionView {
    std::string id, status, paymentProvider, createdAt;
    std::optional<std::string> periodEnd;
    bool cancelAtPeriodEnd = false;
    std::string productId, productSlug, productName;
    std::int64_t productPriceNzd = 0;
    std::optional<std::string> productBillingInterval;
    struct Plan {
        std::string name, currency, frequencyUnit;
        std::int64_t priceAmount = 0, frequencyValue = 0;
    };
    std::optional<Plan> plan;
};

// A subscription as the staff list shows it (GET /api/v1/admin/subscriptions).
struct AdminSubscription {
    std::string id, userId, productId, productName, status, paymentProvider, createdAt;
    std::optional<std::string> userEmail, planId, planName, periodEnd;
    bool cancelAtPeriodEnd = false;
};

class SubscriptionRepository {
public:
    // Staff list, newest first: `status` exact, `search` (the term as typed) a part of the user's
    // email.
    db::Page<AdminSubscription> adminList(Poco::Data::Session& s, const std::optional<std::string>& status,
                                          const std::optional<std::string>& search, db::PageQuery page);
    // Every subscription of the same filter and search, newest first, handed to `onRow` as it is read
    // (keyset pages); returns how many.
    std::int64_t adminExport(db::Database& db, const std::optional<std::string>& status, const std::optional<std::string>& search,
                             const std::function<void(const AdminSubscription&)>& onRow);

    std::optional<SubscriptionRow> findByProvider(db::Tx& tx, const std::string& provider, const std::string& providerId);
    // Another live subscription of the user to the product than `exceptId` (the partial unique
    // index forbids two); exceptId empty: any.
    bool otherLive(db::Tx& tx, const std::string& userId, const std::string& productId, const std::string& exceptId);
    bool hasLive(Poco::Data::Session& s, const std::string& userId, const std::string& productId);
    // Inserts unless the provider's subscription is already stored.
    void insert(db::Tx& tx, const NewSubscription& subscription);
    // Sets status, period end and event time; cancel_at_period_end only when given.
    void update(db::Tx& tx, const std::string& id, const std::string& status, const std::optional<std::string>& periodEnd,
                std::optional<bool> cancelAtPeriodEnd, const std::optional<std::string>& eventAt);
    // The user's subscriptions, newest first.
    std::vector<SubscriptionView> forUser(Poco::Data::Session& s, const std::string& userId);
    // The one validate-subscription reads: the live one first, else the newest.
    std::optional<SubscriptionRow> forValidation(Poco::Data::Session& s, const std::string& userId, const std::string& productId);

    // Whether the ids a provider's metadata names are ours.
    bool userExists(db::Tx& tx, const std::string& id);
    bool productExists(db::Tx& tx, const std::string& id);
    bool planExists(db::Tx& tx, const std::string& id);
};

} // namespace storefront::billing

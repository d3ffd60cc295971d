#pragma once
// SQL for subscriptions. "Live" (status active or trialing) is defined here once, as kLive, and
// "holding the product" (live or past due) as kHolding, for every query that asks;
// billing/orders/rules.h and billing/subscriptions/lifecycle.h have the same rules for a status in
// hand.
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
    std::optional<std::string> periodStart, trialEnd, pastDueSince, endedAt, planId, providerId, customerId;
    std::string provider;
    bool cancelAtPeriodEnd = false;
    std::int64_t creditBalance = 0;
};

struct NewSubscription {
    std::string userId, productId, status, provider, providerId;
    std::optional<std::string> planId, customerId, periodEnd, eventAt;
    bool cancelAtPeriodEnd = false;
    std::optional<std::string> periodStart, trialEnd, pastDueSince;
};

// The columns one change of a subscription sets; what is not given stays. A nested optional sets
// the column to the inner value, NULL included.
struct SubscriptionChange {
    std::optional<std::string> status;
    std::optional<std::string> periodStart, periodEnd, eventAt, trialEnd, planId;
    std::optional<std::optional<std::string>> pastDueSince, endedAt;
    std::optional<bool> cancelAtPeriodEnd;
    std::optional<std::int64_t> creditBalance;
};

// A subscription the reminder job mails about.
struct SubscriptionDue {
    std::string id, userId, productName, deadline; // deadline: the end of the grace or of the trial
    std::optional<std::string> email;
    std::optional<std::int64_t> planAmount;
    std::optional<std::string> planCurrency;
};

// A subscription as the customer's dashboard shows it.
struct SubscriptionView {
    std::string id, status, paymentProvider, createdAt;
    std::optional<std::string> periodEnd, periodStart, trialEnd, pastDueSince, endedAt, planId;
    bool cancelAtPeriodEnd = false;
    std::int64_t creditBalance = 0;
    std::string productId, productSlug, productName;
    std::int64_t productPriceNzd = 0;
    std::optional<std::string> productBillingInterval;
    struct Plan {
        std::string id, name, currency, frequencyUnit;
        std::int64_t priceAmount = 0, frequencyValue = 0;
    };
    std::optional<Plan> plan;
};

// A subscription as the staff list shows it (GET /api/v1/admin/subscriptions).
struct AdminSubscription {
    std::string id, userId, productId, productName, status, paymentProvider, createdAt;
    std::optional<std::string> userEmail, planId, planName, periodEnd, pastDueSince, endedAt;
    bool cancelAtPeriodEnd = false;
    std::vector<std::string> allowedActions; // filled by the caller (billing/subscriptions/lifecycle.h)
};

// A pricing plan as a plan change or a trial needs it.
struct PlanInfo {
    std::string id, productId, productName, name, currency, unit;
    std::int64_t amount = 0, count = 1, trialDays = 0;
};

class SubscriptionRepository {
public:
    // Staff list, newest first: `status` exact, `search` (the term as typed) a part of the user's
    // email.
    db::Page<AdminSubscription> adminList(Poco::Data::Session& s, const std::optional<std::string>& status,
                                          const std::optional<std::string>& search, db::PageQuery page);
    std::optional<AdminSubscription> adminFind(Poco::Data::Session& s, const std::string& id);
    // Every subscription of the same filter and search, newest first, handed to `onRow` as it is read
    // (keyset pages); returns how many.
    std::int64_t adminExport(db::Database& db, const std::optional<std::string>& status, const std::optional<std::string>& search,
                             const std::function<void(const AdminSubscription&)>& onRow);

    std::optional<SubscriptionRow> findByProvider(db::Tx& tx, const std::string& provider, const std::string& providerId);
    std::optional<SubscriptionRow> find(db::Tx& tx, const std::string& id);
    std::optional<SubscriptionRow> find(Poco::Data::Session& s, const std::string& id);
    // Another subscription of the user holding the product than `exceptId` (the partial unique
    // index forbids two); exceptId empty: any.
    bool otherHolding(db::Tx& tx, const std::string& userId, const std::string& productId, const std::string& exceptId);
    bool holds(Poco::Data::Session& s, const std::string& userId, const std::string& productId);
    // Whether the user ever had a trial of the product (one trial per customer and product).
    bool hadTrial(Poco::Data::Session& s, const std::string& userId, const std::string& productId);
    // Inserts unless the provider's subscription is already stored.
    void insert(db::Tx& tx, const NewSubscription& subscription);
    // Writes the columns `change` names (and updated_at).
    void apply(db::Tx& tx, const std::string& id, const SubscriptionChange& change);
    // The row, locked until `tx` ends (a no-op update, on both engines), as of the lock.
    std::optional<SubscriptionRow> lock(db::Tx& tx, const std::string& id);
    // apply(), as a compare-and-set: only while the row still has the status, plan, cancel flag
    // and credit balance `from` had (what the caller decided from). False when it does not:
    // nothing is written.
    bool applyIf(db::Tx& tx, const std::string& id, const SubscriptionRow& from, const SubscriptionChange& change);
    // Records that the `kind` mail about `about` went out; false when it had already (send nothing).
    bool noteSent(db::Tx& tx, const std::string& subscriptionId, const std::string& kind, const std::string& about);
    // Past-due subscriptions whose first failure was at or before `since` (and still past due), and
    // trialing ones whose trial ends between `now` and `until`: the reminder job's candidates.
    std::vector<SubscriptionDue> pastDueSince(Poco::Data::Session& s, const std::string& since, const std::string& notBefore);
    std::vector<SubscriptionDue> trialsEnding(Poco::Data::Session& s, const std::string& now, const std::string& until);
    // The user's subscriptions, newest first.
    std::vector<SubscriptionView> forUser(Poco::Data::Session& s, const std::string& userId);
    // The one validate-subscription reads: the live one first, else the newest.
    std::optional<SubscriptionRow> forValidation(Poco::Data::Session& s, const std::string& userId, const std::string& productId);

    std::optional<PlanInfo> plan(Poco::Data::Session& s, const std::string& planId);
    // What a subscription's mails name: its owner's address ("" when none) and its product.
    std::string ownerEmail(db::Tx& tx, const std::string& userId);
    std::string productName(db::Tx& tx, const std::string& productId);

    // Whether the ids a provider's metadata names are ours.
    bool userExists(db::Tx& tx, const std::string& id);
    bool productExists(db::Tx& tx, const std::string& id);
    bool planExists(db::Tx& tx, const std::string& id);
};

} // namespace storefront::billing

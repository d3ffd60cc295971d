#include "billing/orders/subscription_repository.h"

#include "db/list.h"

namespace storefront::billing {

namespace {

// The one definition of a live subscription in SQL.
const std::string kLive = "status IN ('active', 'trialing')";

constexpr const char* kFindByProvider =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(product_id AS TEXT) AS product_id, status, "
    "CAST(provider_event_at AS TEXT) AS provider_event_at, CAST(current_period_end AS TEXT) AS current_period_end "
    "FROM subscriptions WHERE payment_provider = ? AND provider_subscription_id = ?";
const std::string kHasLive = "SELECT id FROM subscriptions WHERE user_id = ? AND product_id = ? AND " + kLive;
const std::string kOtherLive = kHasLive + " AND id <> ?";
constexpr const char* kInsertSubscription =
    "INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, provider_subscription_id, "
    "provider_customer_id, current_period_end, cancel_at_period_end, provider_event_at, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (payment_provider, provider_subscription_id) DO NOTHING";
constexpr const char* kUpdateWithCancelFlag =
    "UPDATE subscriptions SET status = ?, current_period_end = ?, cancel_at_period_end = ?, provider_event_at = ?, "
    "updated_at = ? WHERE id = ?";
constexpr const char* kUpdate =
    "UPDATE subscriptions SET status = ?, current_period_end = ?, provider_event_at = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSubscriptionsForUser =
    "SELECT CAST(s.id AS TEXT) AS id, s.status, s.payment_provider, CAST(s.current_period_end AS TEXT) AS current_period_end, "
    "s.cancel_at_period_end, CAST(s.created_at AS TEXT) AS created_at, CAST(p.id AS TEXT) AS product_id, p.slug, p.name, "
    "p.price_nzd, p.billing_interval, pp.name AS plan_name, pp.price_amount, pp.currency, pp.billing_frequency_value, "
    "pp.billing_frequency_unit FROM subscriptions s JOIN products p ON p.id = s.product_id "
    "LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id";
const std::string kForValidation =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(product_id AS TEXT) AS product_id, status, "
    "CAST(provider_event_at AS TEXT) AS provider_event_at, CAST(current_period_end AS TEXT) AS current_period_end "
    "FROM subscriptions WHERE user_id = ? AND product_id = ? "
    "ORDER BY CASE WHEN " + kLive + " THEN 0 ELSE 1 END, created_at DESC LIMIT 1";
constexpr const char* kUserExists = "SELECT id FROM users WHERE id = ?";
constexpr const char* kProductExists = "SELECT id FROM products WHERE id = ?";
constexpr const char* kPlanExists = "SELECT id FROM pricing_plans WHERE id = ?";

// An id that matches no row, for "any other" when there is no row to leave out.
constexpr const char* kNoId = "00000000-0000-0000-0000-000000000000";

SubscriptionRow readRow(const db::Row& r) {
    return {r.text("id"), r.text("user_id"), r.text("product_id"), r.text("status"), r.optTimestamp("provider_event_at"),
            r.optTimestamp("current_period_end")};
}

SubscriptionView readView(const db::Row& r) {
    SubscriptionView v;
    v.id = r.text("id");
    v.status = r.text("status");
    v.paymentProvider = r.text("payment_provider");
    v.periodEnd = r.optTimestamp("current_period_end");
    v.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
    v.createdAt = r.timestamp("created_at");
    v.productId = r.text("product_id");
    v.productSlug = r.text("slug");
    v.productName = r.text("name");
    v.productPriceNzd = r.int64("price_nzd");
    v.productBillingInterval = r.optText("billing_interval");
    if (auto planName = r.optText("plan_name"))
        v.plan = SubscriptionView::Plan{*planName, r.text("currency"), r.text("billing_frequency_unit"), r.int64("price_amount"),
                                        r.int64("billing_frequency_value")};
    return v;
}

// ---- staff list ----
constexpr const char* kSubscriptionsAdminColumns =
    "SELECT CAST(s.id AS TEXT) AS id, CAST(s.user_id AS TEXT) AS user_id, u.email AS user_email, "
    "CAST(s.product_id AS TEXT) AS product_id, p.name AS product_name, CAST(s.pricing_plan_id AS TEXT) AS pricing_plan_id, "
    "pp.name AS plan_name, s.status, s.payment_provider, CAST(s.current_period_end AS TEXT) AS current_period_end, "
    "s.cancel_at_period_end, CAST(s.created_at AS TEXT) AS created_at "
    "FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN products p ON p.id = s.product_id "
    "LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id";
constexpr const char* kSubscriptionsAdminCount = "SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id";
constexpr const char* kSubscriptionsAdminWhereStatus = "s.status = ?";
constexpr const char* kSubscriptionsAdminWhereEmail = "LOWER(u.email) LIKE ? ESCAPE '\\'";
// subscriptions_created_at_id_idx (subscriptions_status_created_at_idx with a status) serve this.
constexpr const char* kSubscriptionsAdminNewestFirst = "s.created_at DESC, s.id DESC";

} // namespace

std::optional<SubscriptionRow> SubscriptionRepository::findByProvider(db::Tx& tx, const std::string& provider,
                                                                     const std::string& providerId) {
    return tx.query(kFindByProvider).bind(provider, providerId).one(readRow);
}

bool SubscriptionRepository::otherLive(db::Tx& tx, const std::string& userId, const std::string& productId,
                                       const std::string& exceptId) {
    return tx.query(kOtherLive).bind(userId, productId, exceptId.empty() ? std::string(kNoId) : exceptId).exists();
}

bool SubscriptionRepository::hasLive(Poco::Data::Session& s, const std::string& userId, const std::string& productId) {
    return db::query(s, kHasLive).bind(userId, productId).exists();
}

void SubscriptionRepository::insert(db::Tx& tx, const NewSubscription& n) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertSubscription)
        .bind(db::newId(), n.userId, n.productId, n.planId, n.status, n.provider, n.providerId, n.customerId, n.periodEnd)
        .bind(n.cancelAtPeriodEnd, n.eventAt, at, at)
        .run();
}

void SubscriptionRepository::update(db::Tx& tx, const std::string& id, const std::string& status,
                                    const std::optional<std::string>& periodEnd, std::optional<bool> cancelAtPeriodEnd,
                                    const std::optional<std::string>& eventAt) {
    if (cancelAtPeriodEnd)
        tx.query(kUpdateWithCancelFlag).bind(status, periodEnd, *cancelAtPeriodEnd, eventAt, tx.clock().nowTimestamp(), id).run();
    else
        tx.query(kUpdate).bind(status, periodEnd, eventAt, tx.clock().nowTimestamp(), id).run();
}

std::vector<SubscriptionView> SubscriptionRepository::forUser(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kSubscriptionsForUser).bind(userId).all(readView);
}

std::optional<SubscriptionRow> SubscriptionRepository::forValidation(Poco::Data::Session& s, const std::string& userId,
                                                                    const std::string& productId) {
    return db::query(s, kForValidation).bind(userId, productId).one(readRow);
}

bool SubscriptionRepository::userExists(db::Tx& tx, const std::string& id) { return tx.query(kUserExists).bind(id).exists(); }
bool SubscriptionRepository::productExists(db::Tx& tx, const std::string& id) {
    return tx.query(kProductExists).bind(id).exists();
}
bool SubscriptionRepository::planExists(db::Tx& tx, const std::string& id) { return tx.query(kPlanExists).bind(id).exists(); }

} // namespace storefront::billing

namespace storefront::billing {

namespace {

AdminSubscription readAdminSubscription(const db::Row& r) {
    AdminSubscription a;
    a.id = r.text("id");
    a.userId = r.text("user_id");
    a.userEmail = r.optText("user_email");
    a.productId = r.text("product_id");
    a.productName = r.text("product_name");
    a.planId = r.optText("pricing_plan_id");
    a.planName = r.optText("plan_name");
    a.status = r.text("status");
    a.paymentProvider = r.text("payment_provider");
    a.periodEnd = r.optTimestamp("current_period_end");
    a.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
    a.createdAt = r.timestamp("created_at");
    return a;
}

} // namespace

db::Page<AdminSubscription> SubscriptionRepository::adminList(Poco::Data::Session& s, const std::optional<std::string>& status,
                                                             const std::optional<std::string>& search, db::PageQuery page) {
    db::Where where(s);
    if (status) where.add(kSubscriptionsAdminWhereStatus, {*status});
    if (search) where.add(kSubscriptionsAdminWhereEmail, {db::likePattern(*search)});
    page.orderBy = kSubscriptionsAdminNewestFirst;
    return db::countedPageOf<AdminSubscription>(s, kSubscriptionsAdminColumns, nullptr, kSubscriptionsAdminCount, where, page,
                                                readAdminSubscription);
}

std::int64_t SubscriptionRepository::adminExport(db::Database& db, const std::optional<std::string>& status,
                                                 const std::optional<std::string>& search,
                                                 const std::function<void(const AdminSubscription&)>& onRow) {
    db::Where where(db.dialect()); // no session held while the download waits on the network
    if (status) where.add(kSubscriptionsAdminWhereStatus, {*status});
    if (search) where.add(kSubscriptionsAdminWhereEmail, {db::likePattern(*search)});
    return db::readAll(db, kSubscriptionsAdminColumns, where, {"s.created_at", "s.id", true},
                       [](const db::Row& r) { return readAdminSubscription(r); }, onRow);
}


} // namespace storefront::billing

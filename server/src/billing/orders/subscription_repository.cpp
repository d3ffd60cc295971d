#include "billing/orders/subscription_repository.h"

#include "db/list.h"

namespace storefront::billing {

namespace {

// The one definition of a live subscription in SQL, and of one holding the product.
const std::string kLive = "status IN ('active', 'trialing')";
const std::string kHolding = "status IN ('active', 'trialing', 'past_due')";

constexpr const char* kRowColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(product_id AS TEXT) AS product_id, status, "
    "CAST(provider_event_at AS TEXT) AS provider_event_at, CAST(current_period_end AS TEXT) AS current_period_end, "
    "CAST(current_period_start AS TEXT) AS current_period_start, CAST(trial_end AS TEXT) AS trial_end, "
    "CAST(past_due_since AS TEXT) AS past_due_since, CAST(ended_at AS TEXT) AS ended_at, "
    "CAST(pricing_plan_id AS TEXT) AS pricing_plan_id, payment_provider, provider_subscription_id, provider_customer_id, "
    "cancel_at_period_end, credit_balance FROM subscriptions ";
const std::string kFindByProvider = std::string(kRowColumns) + "WHERE payment_provider = ? AND provider_subscription_id = ?";
const std::string kFind = std::string(kRowColumns) + "WHERE id = ?";
const std::string kHolds = "SELECT id FROM subscriptions WHERE user_id = ? AND product_id = ? AND " + kHolding;
const std::string kOtherHolding = kHolds + " AND id <> ?";
constexpr const char* kHadTrial =
    "SELECT id FROM subscriptions WHERE user_id = ? AND product_id = ? AND trial_end IS NOT NULL";
constexpr const char* kInsertSubscription =
    "INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, provider_subscription_id, "
    "provider_customer_id, current_period_end, cancel_at_period_end, provider_event_at, current_period_start, trial_end, "
    "past_due_since, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (payment_provider, provider_subscription_id) DO NOTHING";
constexpr const char* kSubscriptionsForUser =
    "SELECT CAST(s.id AS TEXT) AS id, s.status, s.payment_provider, CAST(s.current_period_end AS TEXT) AS current_period_end, "
    "CAST(s.current_period_start AS TEXT) AS current_period_start, CAST(s.trial_end AS TEXT) AS trial_end, "
    "CAST(s.past_due_since AS TEXT) AS past_due_since, CAST(s.ended_at AS TEXT) AS ended_at, s.credit_balance, "
    "s.cancel_at_period_end, CAST(s.created_at AS TEXT) AS created_at, CAST(p.id AS TEXT) AS product_id, p.slug, p.name, "
    "p.price_nzd, p.billing_interval, CAST(pp.id AS TEXT) AS plan_id, pp.name AS plan_name, pp.price_amount, pp.currency, "
    "pp.billing_frequency_value, pp.billing_frequency_unit FROM subscriptions s JOIN products p ON p.id = s.product_id "
    "LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id";
const std::string kForValidation = std::string(kRowColumns) + "WHERE user_id = ? AND product_id = ? "
    "ORDER BY CASE WHEN " + kHolding + " THEN 0 ELSE 1 END, created_at DESC LIMIT 1";
constexpr const char* kOwnerEmail = "SELECT email FROM users WHERE id = ?";
constexpr const char* kProductName = "SELECT name FROM products WHERE id = ?";
constexpr const char* kUserExists = "SELECT id FROM users WHERE id = ?";
constexpr const char* kProductExists = "SELECT id FROM products WHERE id = ?";
constexpr const char* kPlanExists = "SELECT id FROM pricing_plans WHERE id = ?";
constexpr const char* kNoteSent =
    "INSERT INTO subscription_notices (subscription_id, kind, about, sent_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (subscription_id, kind, about) DO NOTHING";
constexpr const char* kDueColumns =
    "SELECT CAST(s.id AS TEXT) AS id, CAST(s.user_id AS TEXT) AS user_id, u.email, p.name AS product_name, "
    "pp.price_amount, pp.currency, CAST(s.past_due_since AS TEXT) AS past_due_since, CAST(s.trial_end AS TEXT) AS trial_end "
    "FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN products p ON p.id = s.product_id "
    "LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id ";
const std::string kPastDue = std::string(kDueColumns) +
    "WHERE s.status = 'past_due' AND s.past_due_since <= ? AND s.past_due_since > ? ORDER BY s.past_due_since LIMIT 500";
const std::string kTrialsEnding = std::string(kDueColumns) +
    "WHERE s.status = 'trialing' AND s.trial_end > ? AND s.trial_end <= ? ORDER BY s.trial_end LIMIT 500";

constexpr const char* kPlan =
    "SELECT CAST(pp.id AS TEXT) AS id, CAST(pp.product_id AS TEXT) AS product_id, p.name AS product_name, pp.name, "
    "pp.price_amount, pp.currency, pp.billing_frequency_unit, pp.billing_frequency_value, pp.trial_days "
    "FROM pricing_plans pp JOIN products p ON p.id = pp.product_id WHERE pp.id = ?";

// An id that matches no row, for "any other" when there is no row to leave out.
constexpr const char* kNoId = "00000000-0000-0000-0000-000000000000";

SubscriptionRow readRow(const db::Row& r) {
    SubscriptionRow row;
    row.id = r.text("id");
    row.userId = r.text("user_id");
    row.productId = r.text("product_id");
    row.status = r.text("status");
    row.eventAt = r.optTimestamp("provider_event_at");
    row.periodEnd = r.optTimestamp("current_period_end");
    row.periodStart = r.optTimestamp("current_period_start");
    row.trialEnd = r.optTimestamp("trial_end");
    row.pastDueSince = r.optTimestamp("past_due_since");
    row.endedAt = r.optTimestamp("ended_at");
    row.planId = r.optText("pricing_plan_id");
    row.provider = r.text("payment_provider");
    row.providerId = r.optText("provider_subscription_id");
    row.customerId = r.optText("provider_customer_id");
    row.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
    row.creditBalance = r.int64("credit_balance");
    return row;
}

SubscriptionView readView(const db::Row& r) {
    SubscriptionView v;
    v.id = r.text("id");
    v.status = r.text("status");
    v.paymentProvider = r.text("payment_provider");
    v.periodEnd = r.optTimestamp("current_period_end");
    v.periodStart = r.optTimestamp("current_period_start");
    v.trialEnd = r.optTimestamp("trial_end");
    v.pastDueSince = r.optTimestamp("past_due_since");
    v.endedAt = r.optTimestamp("ended_at");
    v.creditBalance = r.int64("credit_balance");
    v.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
    v.createdAt = r.timestamp("created_at");
    v.productId = r.text("product_id");
    v.productSlug = r.text("slug");
    v.productName = r.text("name");
    v.productPriceNzd = r.int64("price_nzd");
    v.productBillingInterval = r.optText("billing_interval");
    v.planId = r.optText("plan_id");
    if (auto planName = r.optText("plan_name"))
        v.plan = SubscriptionView::Plan{*v.planId, *planName, r.text("currency"), r.text("billing_frequency_unit"),
                                        r.int64("price_amount"), r.int64("billing_frequency_value")};
    return v;
}

SubscriptionDue readDue(const db::Row& r, const char* deadline) {
    SubscriptionDue d;
    d.id = r.text("id");
    d.userId = r.text("user_id");
    d.email = r.optText("email");
    d.productName = r.text("product_name");
    d.deadline = r.timestamp(deadline);
    d.planAmount = r.optInt64("price_amount");
    d.planCurrency = r.optText("currency");
    return d;
}

// ---- staff list ----
constexpr const char* kSubscriptionsAdminColumns =
    "SELECT CAST(s.id AS TEXT) AS id, CAST(s.user_id AS TEXT) AS user_id, u.email AS user_email, "
    "CAST(s.product_id AS TEXT) AS product_id, p.name AS product_name, CAST(s.pricing_plan_id AS TEXT) AS pricing_plan_id, "
    "pp.name AS plan_name, s.status, s.payment_provider, CAST(s.current_period_end AS TEXT) AS current_period_end, "
    "s.cancel_at_period_end, CAST(s.created_at AS TEXT) AS created_at, CAST(s.past_due_since AS TEXT) AS past_due_since, "
    "CAST(s.ended_at AS TEXT) AS ended_at "
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

std::optional<SubscriptionRow> SubscriptionRepository::find(db::Tx& tx, const std::string& id) {
    return tx.query(kFind).bind(id).one(readRow);
}

std::optional<SubscriptionRow> SubscriptionRepository::find(Poco::Data::Session& s, const std::string& id) {
    return db::query(s, kFind).bind(id).one(readRow);
}

bool SubscriptionRepository::otherHolding(db::Tx& tx, const std::string& userId, const std::string& productId,
                                          const std::string& exceptId) {
    return tx.query(kOtherHolding).bind(userId, productId, exceptId.empty() ? std::string(kNoId) : exceptId).exists();
}

bool SubscriptionRepository::holds(Poco::Data::Session& s, const std::string& userId, const std::string& productId) {
    return db::query(s, kHolds).bind(userId, productId).exists();
}

bool SubscriptionRepository::hadTrial(Poco::Data::Session& s, const std::string& userId, const std::string& productId) {
    return db::query(s, kHadTrial).bind(userId, productId).exists();
}

void SubscriptionRepository::insert(db::Tx& tx, const NewSubscription& n) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertSubscription)
        .bind(db::newId(), n.userId, n.productId, n.planId, n.status, n.provider, n.providerId, n.customerId, n.periodEnd)
        .bind(n.cancelAtPeriodEnd, n.eventAt, n.periodStart, n.trialEnd, n.pastDueSince, at, at)
        .run();
}

namespace {

// The UPDATE of `c`'s columns; with `from`, only while the row is as `from` was.
std::int64_t applyChange(db::Tx& tx, const std::string& id, const SubscriptionChange& c, const SubscriptionRow* from) {
    std::string sql = "UPDATE subscriptions SET updated_at = ?";
    auto set = [&sql](const char* column) { sql += std::string(", ") + column + " = ?"; };
    if (c.status) set("status");
    if (c.periodStart) set("current_period_start");
    if (c.periodEnd) set("current_period_end");
    if (c.eventAt) set("provider_event_at");
    if (c.trialEnd) set("trial_end");
    if (c.planId) set("pricing_plan_id");
    if (c.pastDueSince) set("past_due_since");
    if (c.endedAt) set("ended_at");
    if (c.cancelAtPeriodEnd) set("cancel_at_period_end");
    if (c.creditBalance) set("credit_balance");
    sql += " WHERE id = ?";
    if (from)
        sql += " AND status = ? AND COALESCE(CAST(pricing_plan_id AS TEXT), '') = ? AND cancel_at_period_end = ? AND "
               "credit_balance = ?";
    auto q = tx.query(sql);
    q.bind(tx.clock().nowTimestamp());
    if (c.status) q.bind(*c.status);
    if (c.periodStart) q.bind(*c.periodStart);
    if (c.periodEnd) q.bind(*c.periodEnd);
    if (c.eventAt) q.bind(*c.eventAt);
    if (c.trialEnd) q.bind(*c.trialEnd);
    if (c.planId) q.bind(*c.planId);
    if (c.pastDueSince) q.bind(*c.pastDueSince);
    if (c.endedAt) q.bind(*c.endedAt);
    if (c.cancelAtPeriodEnd) q.bind(*c.cancelAtPeriodEnd);
    if (c.creditBalance) q.bind(*c.creditBalance);
    q.bind(id);
    if (from) q.bind(from->status).bind(from->planId.value_or("")).bind(from->cancelAtPeriodEnd).bind(from->creditBalance);
    return static_cast<std::int64_t>(q.changed());
}

constexpr const char* kLockSubscription = "UPDATE subscriptions SET updated_at = updated_at WHERE id = ?";

} // namespace

void SubscriptionRepository::apply(db::Tx& tx, const std::string& id, const SubscriptionChange& c) {
    applyChange(tx, id, c, nullptr);
}

bool SubscriptionRepository::applyIf(db::Tx& tx, const std::string& id, const SubscriptionRow& from, const SubscriptionChange& c) {
    return applyChange(tx, id, c, &from) == 1;
}

std::optional<SubscriptionRow> SubscriptionRepository::lock(db::Tx& tx, const std::string& id) {
    if (tx.query(kLockSubscription).bind(id).changed() != 1) return std::nullopt;
    return find(tx, id);
}

bool SubscriptionRepository::noteSent(db::Tx& tx, const std::string& subscriptionId, const std::string& kind,
                                      const std::string& about) {
    return tx.query(kNoteSent).bind(subscriptionId, kind, about, tx.clock().nowTimestamp()).changed() == 1;
}

std::vector<SubscriptionDue> SubscriptionRepository::pastDueSince(Poco::Data::Session& s, const std::string& since,
                                                                  const std::string& notBefore) {
    return db::query(s, kPastDue).bind(since, notBefore).all([](const db::Row& r) { return readDue(r, "past_due_since"); });
}

std::vector<SubscriptionDue> SubscriptionRepository::trialsEnding(Poco::Data::Session& s, const std::string& now,
                                                                  const std::string& until) {
    return db::query(s, kTrialsEnding).bind(now, until).all([](const db::Row& r) { return readDue(r, "trial_end"); });
}

std::vector<SubscriptionView> SubscriptionRepository::forUser(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kSubscriptionsForUser).bind(userId).all(readView);
}

std::optional<SubscriptionRow> SubscriptionRepository::forValidation(Poco::Data::Session& s, const std::string& userId,
                                                                    const std::string& productId) {
    return db::query(s, kForValidation).bind(userId, productId).one(readRow);
}

std::optional<PlanInfo> SubscriptionRepository::plan(Poco::Data::Session& s, const std::string& planId) {
    return db::query(s, kPlan).bind(planId).one([](const db::Row& r) {
        return PlanInfo{r.text("id"), r.text("product_id"), r.text("product_name"), r.text("name"), r.text("currency"),
                        r.text("billing_frequency_unit"), r.int64("price_amount"), r.int64("billing_frequency_value"),
                        r.int64("trial_days")};
    });
}

std::string SubscriptionRepository::ownerEmail(db::Tx& tx, const std::string& userId) {
    return tx.query(kOwnerEmail).bind(userId).one([](const db::Row& r) { return r.optText("email").value_or(""); }).value_or("");
}

std::string SubscriptionRepository::productName(db::Tx& tx, const std::string& productId) {
    return tx.query(kProductName).bind(productId).one([](const db::Row& r) { return r.text("name"); }).value_or("subscription");
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
    a.pastDueSince = r.optTimestamp("past_due_since");
    a.endedAt = r.optTimestamp("ended_at");
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

std::optional<AdminSubscription> SubscriptionRepository::adminFind(Poco::Data::Session& s, const std::string& id) {
    return db::query(s, std::string(kSubscriptionsAdminColumns) + " WHERE s.id = ?").bind(id).one(readAdminSubscription);
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

// Exact when everything happens at once (issue 41; docs/billing.md, "One claim per record"): an
// action on a subscription or an order claims it before it reads the state it decides on, so
// parallel requests (a double-click, two tabs, two staff, two servers on one database) never both
// decide from the same state. Each scenario runs several times, half its requests through a second
// server, on SQLite and on PostgreSQL, and checks the books after: money charged = ledger =
// provider, stock = start - sold + restocked, no ended subscription active.
#include "api/admin_support.h"
#include "api/billing_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace testing_support;

namespace billing_race_test {

namespace {

constexpr int kRounds = 3;

struct Subscriber {
    Session session;
    std::string email, productId, planId, yearlyId, subscriptionId, providerId;
};

// A fresh product with a monthly plan at 1500 and a yearly one at 15000, a buyer and a paid local
// checkout of the monthly plan.
Subscriber subscribe() {
    Subscriber s;
    auto product = createSubscriptionProduct(s.planId, 1500);
    s.productId = product.id;
    s.yearlyId = storefront::db::newId();
    execSql("INSERT INTO pricing_plans (id, product_id, name, price_amount, currency, billing_frequency_value, "
            "billing_frequency_unit, sort_order, created_at, updated_at) VALUES (?, ?, 'Yearly', 15000, 'NZD', 1, 'year', 1, "
            "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            {s.yearlyId, s.productId});
    auto account = createUser("racer");
    s.email = account.email;
    s.session = signIn(account, newClientIp());
    auto started = startCheckout(s.session, {{"productSlug", product.slug}, {"priceId", s.planId}});
    if (started.status != 200) throw std::runtime_error("checkout: " + started.body);
    if (pressButton(started.json()["url"], "pay").status != 303) throw std::runtime_error("pay");
    auto rows = textColumn("SELECT CAST(id AS TEXT) || '|' || provider_subscription_id FROM subscriptions WHERE user_id = ?",
                           {account.id});
    if (rows.size() != 1) throw std::runtime_error("no subscription");
    s.subscriptionId = rows[0].substr(0, rows[0].find('|'));
    s.providerId = rows[0].substr(rows[0].find('|') + 1);
    return s;
}

// `count` requests at once, request i made by make(i, port) with the port alternating between
// env()'s server and a peer on the same database; their answers, in request order.
std::vector<HttpResult> atOnce(int count, const std::function<HttpResult(int, int)>& make) {
    const int ports[2] = {env().port, peerServer()};
    std::vector<HttpResult> results(count);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i)
        threads.emplace_back([&, i] {
            ++ready;
            while (ready.load() < count) std::this_thread::yield();
            results[i] = make(i, ports[i % 2]);
        });
    for (auto& t : threads) t.join();
    return results;
}

HttpResult act(int port, const Subscriber& s, const std::string& action, const nlohmann::json& body, const Headers& extra = {}) {
    auto headers = s.session.headers();
    for (const auto& [k, v] : extra) headers[k] = v;
    return sendJson(port, "POST", "/api/v1/account/subscriptions/" + s.subscriptionId + "/" + action, body, headers);
}

int count(const std::vector<HttpResult>& results, int status) {
    int n = 0;
    for (const auto& r : results) n += r.status == status;
    return n;
}

// Every answer is a 200 or a 409 with a code the API documents for it.
void expectOnlyOkOrConflict(const std::vector<HttpResult>& results, const std::set<std::string>& codes) {
    for (const auto& r : results) {
        if (r.status == 200) continue;
        EXPECT_EQ(r.status, 409) << r.body;
        if (r.status == 409) {
            EXPECT_TRUE(codes.count(r.json()["code"].get<std::string>())) << r.body;
        }
    }
}

std::int64_t ledgerCharges(const std::string& subscriptionId) {
    return countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ? AND kind = 'subscription_payment'",
                     {subscriptionId});
}
std::int64_t ledgerSum(const std::string& subscriptionId) {
    auto rows = textColumn("SELECT CAST(COALESCE(SUM(amount), 0) AS TEXT) FROM payment_ledger WHERE subscription_id = ? AND "
                           "kind = 'subscription_payment'",
                           {subscriptionId});
    return std::stoll(rows.at(0));
}
std::int64_t audited(const std::string& action, const std::string& id) {
    return countRows("SELECT COUNT(*) FROM audit_log WHERE action = ? AND target_id = ?", {action, id});
}
std::int64_t mails(const std::string& kind, const std::string& to) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, to});
}
std::string subscriptionColumn(const std::string& column, const std::string& id) {
    return textColumn("SELECT CAST(" + column + " AS TEXT) FROM subscriptions WHERE id = ?", {id}).at(0);
}

} // namespace

TEST(BillingRace, TenParallelChangesToTheYearlyPlanChargeOnce) {
    for (int round = 0; round < kRounds; ++round) {
        auto s = subscribe();
        ASSERT_EQ(ledgerCharges(s.subscriptionId), 1);
        auto results = atOnce(10, [&](int, int port) { return act(port, s, "change-plan", {{"priceId", s.yearlyId}}); });
        EXPECT_EQ(count(results, 200), 1) << "round " << round;
        expectOnlyOkOrConflict(results, {"action_in_progress", "already_on_plan"});
        // One charge, one invoice, one mail, one audit entry.
        EXPECT_EQ(ledgerCharges(s.subscriptionId), 2) << "round " << round;
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE subscription_id = ? AND kind = 'invoice'", {s.subscriptionId}), 2);
        EXPECT_EQ(mails("plan_changed", s.email), 1);
        EXPECT_EQ(audited("subscription.plan_changed", s.subscriptionId), 1);
        EXPECT_EQ(subscriptionColumn("pricing_plan_id", s.subscriptionId), s.yearlyId);
        // No claim is left in flight.
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM record_actions WHERE record_id = ? AND state = 'in_flight'", {s.subscriptionId}), 0);
    }
}

TEST(BillingRace, AlternatingChangesArePricedFromWhatTheOneBeforeWrote) {
    for (int round = 0; round < kRounds; ++round) {
        auto s = subscribe();
        const auto paidBefore = ledgerSum(s.subscriptionId);
        auto results = atOnce(10, [&](int i, int port) {
            return act(port, s, "change-plan", {{"priceId", i % 2 == 0 ? s.yearlyId : s.planId}});
        });
        expectOnlyOkOrConflict(results, {"action_in_progress", "already_on_plan"});
        const int applied = count(results, 200);
        EXPECT_GE(applied, 1);
        // The committed changes, oldest first, form one chain: each starts where the one before
        // ended, and the money charged is what they said was due (a serial replay).
        auto entries = textColumn("SELECT detail || '|' || before_json || '|' || after_json FROM audit_log WHERE action = "
                                  "'subscription.plan_changed' AND target_id = ? ORDER BY created_at, id",
                                  {s.subscriptionId});
        ASSERT_EQ(static_cast<int>(entries.size()), applied);
        std::string plan = s.planId;
        std::int64_t due = 0;
        for (const auto& e : entries) {
            const auto first = e.find('|'), second = e.find('|', first + 1);
            auto detail = nlohmann::json::parse(e.substr(0, first));
            auto before = nlohmann::json::parse(e.substr(first + 1, second - first - 1));
            auto after = nlohmann::json::parse(e.substr(second + 1));
            EXPECT_EQ(before["pricing_plan_id"], plan) << "round " << round;
            plan = after["pricing_plan_id"];
            due += detail["amount_due_now"].get<std::int64_t>();
        }
        EXPECT_EQ(ledgerSum(s.subscriptionId) - paidBefore, due) << "round " << round;
        EXPECT_EQ(subscriptionColumn("pricing_plan_id", s.subscriptionId), plan);
    }
}

TEST(BillingRace, CancelNowAgainstChangePlanNeverLeavesAnEndedSubscriptionActiveOrCharged) {
    for (int round = 0; round < kRounds; ++round) {
        auto s = subscribe();
        auto results = atOnce(8, [&](int i, int port) {
            return i % 2 == 0 ? act(port, s, "cancel", {{"at_period_end", false}})
                              : act(port, s, "change-plan", {{"priceId", s.yearlyId}});
        });
        expectOnlyOkOrConflict(results, {"action_in_progress", "already_on_plan", "invalid_transition"});
        int cancels = 0;
        for (int i = 0; i < 8; i += 2) cancels += results[i].status == 200;
        EXPECT_LE(cancels, 1) << "round " << round;
        const auto status = subscriptionColumn("status", s.subscriptionId);
        const bool ended = countRows("SELECT COUNT(*) FROM subscriptions WHERE id = ? AND ended_at IS NOT NULL", {s.subscriptionId}) == 1;
        // Cancelled with its end, or (every cancel refused while a change held it) active without one.
        EXPECT_EQ(status == "cancelled", cancels == 1) << "round " << round << ": " << status;
        EXPECT_EQ(ended, cancels == 1) << "round " << round;
        EXPECT_EQ(audited("subscription.cancelled", s.subscriptionId), cancels);
        if (cancels == 0) {
            ASSERT_EQ(act(env().port, s, "cancel", {{"at_period_end", false}}).status, 200);
        }
        // Nothing is charged after the cancellation, and it stays ended.
        const auto charges = ledgerCharges(s.subscriptionId);
        auto renewed = http(env().port, "POST", "/pay/test/subscriptions/" + s.providerId + "/renew", "outcome=succeeded",
                            {{"Content-Type", "application/x-www-form-urlencoded"}});
        EXPECT_NE(renewed.status, 500) << renewed.body;
        EXPECT_EQ(ledgerCharges(s.subscriptionId), charges);
        EXPECT_EQ(subscriptionColumn("status", s.subscriptionId), "cancelled");
    }
}

TEST(BillingRace, FiveParallelCancelsAtThePeriodEndAnswerOnce) {
    for (int round = 0; round < kRounds; ++round) {
        auto s = subscribe();
        auto results = atOnce(5, [&](int, int port) { return act(port, s, "cancel", {{"at_period_end", true}}); });
        EXPECT_EQ(count(results, 200), 1) << "round " << round;
        expectOnlyOkOrConflict(results, {"action_in_progress", "invalid_transition"});
        EXPECT_EQ(audited("subscription.cancel_scheduled", s.subscriptionId), 1);
        EXPECT_EQ(mails("subscription_cancelled", s.email), 1);
    }
}

TEST(BillingRace, AnIdempotencyKeyAnswersTheFirstOutcomeAgainAndRefusesAnotherRequest) {
    auto s = subscribe();
    const Headers key = {{"Idempotency-Key", "change-" + storefront::db::newId()}};
    auto first = act(env().port, s, "change-plan", {{"priceId", s.yearlyId}}, key);
    ASSERT_EQ(first.status, 200) << first.body;
    auto again = act(peerServer(), s, "change-plan", {{"priceId", s.yearlyId}}, key);
    ASSERT_EQ(again.status, 200) << again.body; // not already_on_plan: the first outcome again
    EXPECT_EQ(again.json()["pricing_plan_id"], s.yearlyId);
    EXPECT_EQ(ledgerCharges(s.subscriptionId), 2);
    auto other = act(env().port, s, "change-plan", {{"priceId", s.planId}}, key);
    EXPECT_EQ(other.status, 409) << other.body;
    EXPECT_EQ(other.json()["code"], "idempotency_key_reused");
    auto otherAction = act(env().port, s, "cancel", {{"at_period_end", true}}, key);
    EXPECT_EQ(otherAction.status, 409) << otherAction.body;
    EXPECT_EQ(otherAction.json()["code"], "idempotency_key_reused");
    EXPECT_EQ(subscriptionColumn("pricing_plan_id", s.subscriptionId), s.yearlyId);
    EXPECT_EQ(audited("subscription.cancel_scheduled", s.subscriptionId), 0);
}

TEST(BillingRace, AClaimLeftByAStoppedServerIsTakenOverWhenItsLeaseRunsOut) {
    auto s = subscribe();
    // As a server that stopped mid-action leaves it: in flight, its provider call made or not.
    const auto stale = storefront::db::newId();
    execSql("INSERT INTO record_actions (id, record_type, record_id, action, idempotency_key, request, state, started_at, "
            "lease_until) VALUES (?, 'subscription', ?, 'change_plan', NULL, '{}', 'in_flight', ?, ?)",
            {stale, s.subscriptionId, testClock().timestampAfter(-10), testClock().timestampAfter(110)});
    auto held = act(env().port, s, "change-plan", {{"priceId", s.yearlyId}});
    EXPECT_EQ(held.status, 409) << held.body;
    EXPECT_EQ(held.json()["code"], "action_in_progress");
    EXPECT_GT(std::stoi(held.header("retry-after")), 0);
    EXPECT_EQ(ledgerCharges(s.subscriptionId), 1);
    {
        ClockShift later(std::chrono::seconds(121));
        auto taken = act(env().port, s, "change-plan", {{"priceId", s.yearlyId}});
        ASSERT_EQ(taken.status, 200) << taken.body;
    }
    EXPECT_EQ(textColumn("SELECT state FROM record_actions WHERE id = ?", {stale}).at(0), "failed");
    EXPECT_EQ(ledgerCharges(s.subscriptionId), 2);
}

TEST(BillingRace, ParallelRefundsOfASubscriptionPaymentRefundNoMoreThanWasPaid) {
    for (int round = 0; round < kRounds; ++round) {
        auto s = subscribe();
        const auto staff = callers().admin;
        auto results = atOnce(6, [&](int i, int port) {
            auto headers = staff;
            headers["Idempotency-Key"] = unique("sub-refund-" + std::to_string(i));
            return sendJson(port, "POST", "/api/v1/admin/subscriptions/" + s.subscriptionId + "/refunds",
                            {{"amount", 1000}, {"reason", "Goodwill"}}, headers);
        });
        for (const auto& r : results)
            EXPECT_TRUE(r.status == 201 || r.status == 409 || r.status == 422) << r.status << " " << r.body;
        EXPECT_EQ(count(results, 201), 1) << "round " << round;
        const auto refunded = std::stoll(
            textColumn("SELECT CAST(COALESCE(SUM(r.amount), 0) AS TEXT) FROM subscription_refunds r JOIN subscription_payments p "
                       "ON p.id = r.payment_id WHERE p.subscription_id = ? AND r.status IN ('requested', 'pending', 'succeeded')",
                       {s.subscriptionId})
                .at(0));
        EXPECT_EQ(refunded, 1000) << "round " << round;
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM record_actions WHERE record_id = ? AND state = 'in_flight'", {s.subscriptionId}), 0);
    }
}

// Finished claims answer their key again for a day; the hourly housekeeping (which a server runs
// when it starts) deletes older ones, and never one in flight.
TEST(BillingRace, TheHourlyHousekeepingPrunesClaimsFinishedMoreThanADayAgo) {
    auto s = subscribe();
    const auto old = storefront::db::newId(), recent = storefront::db::newId(), flying = storefront::db::newId();
    const auto insert = [&](const std::string& id, const char* state, std::int64_t finishedAgo, const std::string& key) {
        execSql(std::string("INSERT INTO record_actions (id, record_type, record_id, action, idempotency_key, request, state, "
                            "started_at, lease_until, finished_at) VALUES (?, 'subscription', ?, 'resume', ?, '{}', '") +
                    state + "', ?, ?, " + (finishedAgo < 0 ? "NULL" : "?") + ")",
                finishedAgo < 0 ? std::vector<std::string>{id, storefront::db::newId(), key, testClock().timestampAfter(-200000),
                                                           testClock().timestampAfter(-199880)}
                                : std::vector<std::string>{id, s.subscriptionId, key, testClock().timestampAfter(-200000),
                                                           testClock().timestampAfter(-199880),
                                                           testClock().timestampAfter(-finishedAgo)});
    };
    insert(old, "done", 2 * 86400, unique("old-key"));
    insert(recent, "done", 3600, unique("recent-key"));
    insert(flying, "in_flight", -1, unique("flying-key"));
    // A server of its own (no other test starts one like it): its first round runs the hourly jobs.
    serverWith({{"STOREFRONT_PAST_DUE_GRACE_DAYS", "13"}});
    EXPECT_TRUE(eventually([&] { return countRows("SELECT COUNT(*) FROM record_actions WHERE id = ?", {old}) == 0; }))
        << "the claim finished two days ago is still there";
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM record_actions WHERE id IN (?, ?)", {recent, flying}), 2);
}

// ---- orders ---------------------------------------------------------------------------------------

namespace {

struct PaidOrder {
    std::string id, productId, email;
};

// A hardware order of 2 at 4900 from `stock`, paid through the local provider's TEST MODE page.
PaidOrder paidOrder(int stock) {
    auto product = createHardware(stock, 4900);
    auto buyer = newBuyer("race-order");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", 2}});
    if (checkout.status != 200) throw std::runtime_error("checkout: " + checkout.body);
    if (pressButton(checkout.json()["url"], "pay").status != 303) throw std::runtime_error("pay");
    const auto id = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?",
                               {std::string(checkout.json()["checkoutId"])})
                        .at(0);
    return {id, product.id, textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0)};
}

std::string orderStatus(const std::string& id) { return textColumn("SELECT status FROM orders WHERE id = ?", {id}).at(0); }
std::int64_t refundedTotal(const std::string& id) {
    return std::stoll(textColumn("SELECT CAST(COALESCE(SUM(amount), 0) AS TEXT) FROM order_refunds WHERE order_id = ? AND "
                                 "status = 'succeeded'",
                                 {id})
                          .at(0));
}

// The order's history is a path of the lifecycle table: each row starts where the one before ended.
void expectHistoryIsAPath(const std::string& id) {
    auto rows = textColumn("SELECT COALESCE(from_status, '') || '>' || to_status FROM order_status_history WHERE order_id = ? "
                           "ORDER BY seq",
                           {id});
    std::string at;
    for (const auto& r : rows) {
        const auto from = r.substr(0, r.find('>')), to = r.substr(r.find('>') + 1);
        // A row without a from is a note (a refund that moved nothing): it stays where the order is.
        if (!at.empty() && (from.empty() ? to != at : from != at)) ADD_FAILURE() << id << ": history jumps from " << at << " to " << r;
        at = to;
    }
}

} // namespace

TEST(BillingRace, CancelOrderAgainstShipAndCompleteNeverCancelsOrRestocksWhatLeft) {
    for (int round = 0; round < kRounds; ++round) {
        auto order = paidOrder(10);
        ASSERT_EQ(orderStatus(order.id), "paid");
        ASSERT_EQ(stockOf(order.productId), 8);
        const auto staff = callers().admin;
        auto results = atOnce(6, [&](int i, int port) {
            if (i % 3 == 0)
                return sendJson(port, "POST", "/api/v1/admin/orders/" + order.id + "/cancel",
                                {{"reason", "Out of time"}, {"restock", true}}, staff);
            return sendJson(port, "PATCH", "/api/v1/admin/orders/" + order.id,
                            {{"status", i % 3 == 1 ? "shipped" : "completed"}, {"carrier", "NZ Post"}}, staff);
        });
        for (const auto& r : results)
            EXPECT_TRUE(r.status == 200 || r.status == 409 || r.status == 422) << r.status << " " << r.body;
        const auto status = orderStatus(order.id);
        const auto refunded = refundedTotal(order.id);
        if (status == "cancelled") {
            // Cancelled before anything shipped: refunded in full and restocked, and nothing after.
            EXPECT_EQ(refunded, 9800) << "round " << round;
            EXPECT_EQ(stockOf(order.productId), 10);
            EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ? AND to_status IN ('shipped', "
                                "'completed')",
                                {order.id}),
                      0);
        } else {
            // It left: never cancelled, refunded or restocked.
            EXPECT_TRUE(status == "shipped" || status == "completed") << status;
            EXPECT_EQ(refunded, 0) << "round " << round;
            EXPECT_EQ(stockOf(order.productId), 8);
        }
        expectHistoryIsAPath(order.id);
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM record_actions WHERE record_id = ? AND state = 'in_flight'", {order.id}), 0);
    }
}

TEST(BillingRace, CancelOrderAgainstARefundRefundsNoMoreThanWasPaid) {
    for (int round = 0; round < kRounds; ++round) {
        auto order = paidOrder(10);
        const auto staff = callers().admin;
        auto results = atOnce(6, [&](int i, int port) {
            if (i % 2 == 0)
                return sendJson(port, "POST", "/api/v1/admin/orders/" + order.id + "/cancel",
                                {{"reason", "Out of time"}, {"restock", true}}, staff);
            return sendJson(port, "POST", "/api/v1/admin/orders/" + order.id + "/refunds",
                            {{"amount", 4900}, {"reason", "One was broken"}}, staff);
        });
        for (const auto& r : results)
            EXPECT_TRUE(r.status == 200 || r.status == 201 || r.status == 409 || r.status == 422) << r.status << " " << r.body;
        const auto refunded = refundedTotal(order.id);
        EXPECT_LE(refunded, 9800) << "round " << round;
        // The ledger's refunds are the refunds' sum, and the credit notes credit no more.
        auto ledger = std::stoll(textColumn("SELECT CAST(COALESCE(SUM(amount), 0) AS TEXT) FROM payment_ledger WHERE order_id = ? AND "
                                            "kind = 'refund'",
                                            {order.id})
                                     .at(0));
        EXPECT_EQ(std::llabs(ledger), refunded) << "round " << round;
        // Stock: the restock of a cancellation, at most once.
        EXPECT_LE(stockOf(order.productId), 10);
        expectHistoryIsAPath(order.id);
    }
}

TEST(BillingRace, TwoTrialCheckoutsAtOnceStartOneTrialAndTheOtherIsPaid) {
    for (int round = 0; round < kRounds; ++round) {
        std::string planId;
        auto product = createSubscriptionProduct(planId, 1500);
        execSql("UPDATE pricing_plans SET trial_days = 14 WHERE id = ?", {planId});
        auto account = createUser("trial-racer");
        auto session = signIn(account, newClientIp());
        auto results = atOnce(2, [&](int, int port) {
            return sendJson(port, "POST", "/functions/v1/create-checkout-session",
                            {{"productSlug", product.slug}, {"priceId", planId}}, session.headers());
        });
        for (const auto& r : results) ASSERT_EQ(r.status, 200) << r.body;
        // Decided when the checkouts started, one after the other: one trial, one priced in full.
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE user_id = ? AND trial_days > 0 AND amount_total = 0",
                            {account.id}),
                  1)
            << "round " << round;
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE user_id = ? AND trial_days = 0 AND amount_total = 1500",
                            {account.id}),
                  1)
            << "round " << round;
        // The one priced in full, paid, is a paid subscription: no trial, its money in the ledger.
        // (Paying the other as well would leave it pending: one subscription per customer and product.)
        const auto paidId = textColumn("SELECT CAST(id AS TEXT) FROM checkout_sessions WHERE user_id = ? AND trial_days = 0",
                                       {account.id});
        ASSERT_EQ(paidId.size(), 1u);
        for (const auto& r : results)
            if (r.json()["checkoutId"] == paidId[0]) {
                ASSERT_EQ(pressButton(r.json()["url"], "pay").status, 303);
            }
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND status = 'active' AND trial_end IS NULL",
                            {account.id}),
                  1);
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger l JOIN subscriptions x ON x.id = l.subscription_id "
                            "WHERE x.user_id = ? AND l.amount = 1500",
                            {account.id}),
                  1);
    }
}

// A trial checkout given up frees the trial: the next checkout of the product starts it.
TEST(BillingRace, ATrialCheckoutGivenUpLeavesTheTrialToTake) {
    std::string planId;
    auto product = createSubscriptionProduct(planId, 1500);
    execSql("UPDATE pricing_plans SET trial_days = 14 WHERE id = ?", {planId});
    auto account = createUser("trial-quitter");
    auto session = signIn(account, newClientIp());
    auto first = startCheckout(session, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(first.status, 200) << first.body;
    const std::string checkoutId = first.json()["checkoutId"];
    ASSERT_EQ(sendJson(env().port, "POST", "/api/v1/account/checkouts/" + checkoutId + "/cancel", nlohmann::json::object(),
                       session.headers())
                  .status,
              200);
    auto second = startCheckout(session, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE id = ? AND trial_days = 14 AND amount_total = 0",
                        {std::string(second.json()["checkoutId"])}),
              1);
}

} // namespace billing_race_test

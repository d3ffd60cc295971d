// The payment-event inbox through Stripe's webhook: signatures, duplicates delivered in parallel,
// events in any order, and what validate-subscription answers for every stored status.
#include "api/billing_support.h"
#include "billing/provider/stripe_signature.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

using namespace testing_support;
using storefront::billing::stripeSignatureHeader;

namespace {

const std::string kHhtraffId = "2d1ed2c8-1727-4279-bfc0-512f613b5b8b";
const std::string kNewSecret = "whsec_test_new_0123456789";
const std::string kOldSecret = "whsec_test_old_9876543210";

// A server taking Stripe webhooks, signed with either of two secrets (a rotation in progress).
int stripeServer() {
    return serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                       {"STRIPE_SECRET_KEY", "sk_test_unused"},
                       {"STRIPE_WEBHOOK_SECRET", kNewSecret + ", " + kOldSecret}});
}

std::int64_t nowUnix() { return Poco::Timestamp().epochTime(); }

HttpResult deliver(const std::string& payload, const std::string& signature) {
    Headers h{{"Content-Type", "application/json"}};
    if (!signature.empty()) h["Stripe-Signature"] = signature;
    return http(stripeServer(), "POST", "/webhooks/stripe", payload, h);
}

HttpResult deliverSigned(const nlohmann::json& event, const std::string& secret = kNewSecret) {
    const std::string payload = event.dump();
    return deliver(payload, stripeSignatureHeader(secret, payload, nowUnix()));
}

nlohmann::json event(const std::string& id, const std::string& type, std::int64_t created, nlohmann::json object) {
    return {{"id", id}, {"object", "event"}, {"type", type}, {"created", created}, {"data", {{"object", std::move(object)}}}};
}

nlohmann::json guestSession(const std::string& sessionId, const std::string& email) {
    return {{"id", sessionId},        {"object", "checkout.session"}, {"mode", "payment"},
            {"payment_status", "paid"}, {"amount_total", 12900},      {"currency", "nzd"},
            {"customer_details", {{"email", email}}}};
}

} // namespace

TEST(BillingWebhook, AcceptsOnlyGenuineFreshSignatures) {
    const std::string payload = event(unique("evt_sig"), "product.updated", nowUnix(), {{"id", "prod_1"}}).dump();
    const auto t = nowUnix();
    EXPECT_EQ(deliver(payload, stripeSignatureHeader(kNewSecret, payload, t)).status, 200);

    auto altered = payload;
    altered.replace(altered.find("prod_1"), 6, "prod_2");
    auto r = deliver(altered, stripeSignatureHeader(kNewSecret, payload, t));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json()["code"], "invalid_signature");

    EXPECT_EQ(deliver(payload, stripeSignatureHeader(kNewSecret, payload, t - 301)).status, 400); // stale
    // From the future, by more than the tolerance (with room for the clock to tick before the check).
    EXPECT_EQ(deliver(payload, stripeSignatureHeader(kNewSecret, payload, nowUnix() + 310)).status, 400);
    EXPECT_EQ(deliver(payload, "").status, 400);                                                    // missing
    EXPECT_EQ(deliver(payload, "t=abc,v1=00").status, 400);                                         // malformed
    EXPECT_EQ(deliver(payload, stripeSignatureHeader("whsec_someone_else", payload, t)).status, 400);

    // Rotation: the old secret still verifies while it is configured.
    const std::string second = event(unique("evt_sig"), "product.updated", nowUnix(), {{"id", "prod_1"}}).dump();
    EXPECT_EQ(deliver(second, stripeSignatureHeader(kOldSecret, second, t)).status, 200);
    // One good v1 among several is enough.
    const std::string third = event(unique("evt_sig"), "product.updated", nowUnix(), {{"id", "prod_1"}}).dump();
    const std::string both = "t=" + std::to_string(t) + ",v1=" + std::string(64, '0') + ",v1=" +
                             storefront::billing::stripeSignature(kNewSecret, third, t);
    EXPECT_EQ(deliver(third, both).status, 200);

    // A signed body that is not an event is refused and stores nothing.
    const auto before = countRows("SELECT COUNT(*) FROM payment_events");
    const std::string junk = R"({"hello":"world"})";
    auto bad = deliver(junk, stripeSignatureHeader(kNewSecret, junk, t));
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.json()["code"], "malformed_event");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_events"), before);
}

TEST(BillingWebhook, OneEventDeliveredTwentyTimesInParallelTakesEffectOnce) {
    const std::string sessionId = unique("cs_guest");
    const std::string email = newEmail("guest");
    const auto e = event(unique("evt_dup"), "checkout.session.completed", nowUnix(), guestSession(sessionId, email));
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i)
        threads.emplace_back([&] {
            if (deliverSigned(e).status == 200) ++ok;
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok.load(), 20);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE provider_checkout_id = ?", {"stripe:" + sessionId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE provider_checkout_id = ? AND user_id IS NULL AND status = 'paid' "
                        "AND total_amount = 12900",
                        {"stripe:" + sessionId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_events WHERE event_id = ?", {e["id"]}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ? AND kind = 'order_confirmation'", {email}), 1);
    // The same payment again under another event id (async success) does not make a second order.
    deliverSigned(event(unique("evt_dup"), "checkout.session.async_payment_succeeded", nowUnix(), guestSession(sessionId, email)));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE provider_checkout_id = ?", {"stripe:" + sessionId}), 1);
}

namespace {

nlohmann::json subscriptionObject(const std::string& id, const std::string& userId, const std::string& status,
                                  std::int64_t periodEnd, bool cancelAtPeriodEnd) {
    return {{"id", id},
            {"object", "subscription"},
            {"customer", "cus_shuffle"},
            {"status", status},
            {"cancel_at_period_end", cancelAtPeriodEnd},
            {"metadata", {{"user_id", userId}, {"product_id", kHhtraffId}, {"pricing_plan_id", kMonthlyPlanId}}},
            {"items", {{"data", nlohmann::json::array({{{"current_period_end", periodEnd}}})}}}};
}

nlohmann::json invoiceObject(const std::string& sub, std::int64_t periodEnd) {
    nlohmann::json line = {{"period", {{"start", periodEnd - 86400 * 30}, {"end", periodEnd}}}};
    return {{"id", unique("in")},
            {"object", "invoice"},
            {"parent", {{"subscription_details", {{"subscription", sub}}}}},
            {"lines", {{"data", nlohmann::json::array({line})}}}};
}

struct FinalState {
    std::string status, periodEnd, cancelAtPeriodEnd;
    bool operator==(const FinalState&) const = default;
};

// Delivers the events of one subscription in the given order; returns the stored outcome.
FinalState runInOrder(const std::vector<int>& order, bool withDeletion) {
    auto user = createUser("shuffle");
    const std::string sub = unique("sub_shuffle");
    const std::int64_t base = nowUnix() - 1000, p1 = 1900000000, p2 = 1902600000;
    std::vector<nlohmann::json> events = {
        event(unique("evt"), "customer.subscription.created", base, subscriptionObject(sub, user.id, "active", p1, false)),
        event(unique("evt"), "invoice.paid", base, invoiceObject(sub, p1)),
        event(unique("evt"), "customer.subscription.updated", base + 100, subscriptionObject(sub, user.id, "past_due", p1, false)),
        event(unique("evt"), "invoice.payment_failed", base + 100, invoiceObject(sub, p1)),
        event(unique("evt"), "invoice.paid", base + 200, invoiceObject(sub, p2)),
        event(unique("evt"), "customer.subscription.updated", base + 200, subscriptionObject(sub, user.id, "active", p2, true)),
    };
    if (withDeletion)
        events.push_back(event(unique("evt"), "customer.subscription.deleted", base + 300,
                               subscriptionObject(sub, user.id, "canceled", p2, true)));
    for (int i : order) {
        if (i >= static_cast<int>(events.size())) continue;
        auto r = deliverSigned(events[i]);
        EXPECT_EQ(r.status, 200) << r.body;
    }
    auto rows = textColumn("SELECT status || '|' || CAST(current_period_end AS TEXT) || '|' || "
                           "CASE WHEN cancel_at_period_end THEN 'yes' ELSE 'no' END FROM subscriptions "
                           "WHERE provider_subscription_id = ?",
                           {sub});
    if (rows.size() != 1) return {"missing", "", ""};
    auto parts = rows[0];
    auto a = parts.find('|'), b = parts.rfind('|');
    return {parts.substr(0, a), storefront::db::normalizeTimestamp(parts.substr(a + 1, b - a - 1)), parts.substr(b + 1)};
}

} // namespace

TEST(BillingWebhook, EventsInAnyOrderReachTheSameState) {
    for (bool withDeletion : {false, true}) {
        std::vector<int> order(withDeletion ? 7 : 6);
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        const FinalState expected{withDeletion ? "cancelled" : "active", storefront::db::timestampFromEpoch(1902600000), "yes"};
        EXPECT_EQ(runInOrder(order, withDeletion), expected);
        std::reverse(order.begin(), order.end());
        EXPECT_EQ(runInOrder(order, withDeletion), expected);
        std::mt19937 rng(withDeletion ? 7 : 11);
        for (int round = 0; round < 4; ++round) {
            std::shuffle(order.begin(), order.end(), rng);
            EXPECT_EQ(runInOrder(order, withDeletion), expected) << "order " << nlohmann::json(order).dump();
        }
    }
}

TEST(BillingValidate, AnswersForEveryStoredStatus) {
    struct Case {
        std::string status;
        std::int64_t periodOffset; // seconds from now; 0 = no period end
        bool valid;
        std::string answer, message;
        int days;
    };
    const std::vector<Case> cases = {
        {"active", 10 * 86400 - 60, true, "active", "Subscription active", 10},
        {"active", 0, true, "active", "Subscription active", 0},
        {"trialing", 3 * 86400 - 60, true, "trial", "Trial active", 3},
        {"active", -60, false, "expired", "Subscription expired", 0},
        {"pending", 86400, false, "pending", "Payment pending", 0},
        {"cancelled", 86400, false, "cancelled", "Subscription cancelled", 0},
        {"expired", -86400, false, "expired", "Subscription expired", 0},
    };
    for (const auto& c : cases) {
        auto buyer = newBuyer("validate");
        const std::string at = testClock().nowTimestamp();
        execSql("INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, current_period_end, "
                "cancel_at_period_end, created_at, updated_at) VALUES (?, ?, ?, ?, 'stripe', " +
                    std::string(c.periodOffset ? "?" : "NULL") + ", FALSE, ?, ?)",
                c.periodOffset ? std::vector<std::string>{storefront::db::newId(), buyer.userId, kHhtraffId, c.status,
                                                          testClock().timestampAfter(static_cast<int>(c.periodOffset)), at, at}
                               : std::vector<std::string>{storefront::db::newId(), buyer.userId, kHhtraffId, c.status, at, at});
        auto r = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", "hhtraff"}},
                          buyer.headers());
        ASSERT_EQ(r.status, 200) << r.body;
        auto j = r.json();
        EXPECT_EQ(j["valid"], c.valid) << c.status;
        EXPECT_EQ(j["status"], c.answer) << c.status;
        EXPECT_EQ(j["message"], c.message) << c.status;
        EXPECT_EQ(j["daysRemaining"], c.days) << c.status;
        EXPECT_EQ(j["expiresAt"].is_null(), c.periodOffset == 0) << c.status;
    }
    auto nobody = newBuyer("validate");
    auto none = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", "hhtraff"}},
                         nobody.headers())
                    .json();
    EXPECT_EQ(none["valid"], false);
    EXPECT_EQ(none["status"], "none");
    EXPECT_EQ(none["message"], "No subscription found");
    EXPECT_TRUE(none["expiresAt"].is_null());
    EXPECT_EQ(sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", "nope"}}, nobody.headers())
                  .status,
              404);
    EXPECT_EQ(sendJson(env().port, "POST", "/functions/v1/validate-subscription", nlohmann::json::object(), nobody.headers())
                  .status,
              422);
}

// The subscription lifecycle over HTTP (docs/billing.md, "Subscription lifecycle"): a declined
// renewal is a grace period, then a refusal, then a recovery; cancel at the period end, resume,
// cancel now; a plan change with its proration; a trial, once per customer and product; and every
// refused action changes nothing. Through the local test provider's renewals, and through Stripe's
// signed events in the pinned API version's shapes.
#include "api/billing_support.h"
#include "api/enterprise_support.h"
#include "api/fake_stripe.h"
#include "api/harness.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <chrono>

using namespace testing_support;

namespace {

struct Subscriber {
    Account account;
    Session session;
    std::string productId, slug, planId, subscriptionId, providerId;
};

// A fresh subscription product (monthly at `price`), a buyer, a paid local checkout.
Subscriber subscribe(std::int64_t price = 1500, int trialDays = 0) {
    Subscriber s;
    auto product = createSubscriptionProduct(s.planId, price);
    if (trialDays > 0) execSql("UPDATE pricing_plans SET trial_days = " + std::to_string(trialDays) + " WHERE id = ?", {s.planId});
    s.productId = product.id;
    s.slug = product.slug;
    s.account = createUser("subscriber");
    s.session = signIn(s.account, newClientIp());
    auto started = startCheckout(s.session, {{"productSlug", s.slug}, {"priceId", s.planId}});
    EXPECT_EQ(started.status, 200) << started.body;
    auto body = started.json();
    EXPECT_EQ(pressButton(body["url"], "pay").status, 303);
    auto rows = textColumn("SELECT CAST(id AS TEXT) || '|' || provider_subscription_id FROM subscriptions WHERE user_id = ?",
                           {s.account.id});
    EXPECT_EQ(rows.size(), 1u);
    if (!rows.empty()) {
        s.subscriptionId = rows[0].substr(0, rows[0].find('|'));
        s.providerId = rows[0].substr(rows[0].find('|') + 1);
    }
    return s;
}

HttpResult renew(const std::string& providerId, const std::string& outcome) {
    return http(env().port, "POST", "/pay/test/subscriptions/" + providerId + "/renew", "outcome=" + outcome,
                {{"Content-Type", "application/x-www-form-urlencoded"}});
}

nlohmann::json validate(const Session& session, const std::string& slug) {
    auto r = sendJson(env().port, "POST", "/functions/v1/validate-subscription", {{"productSlug", slug}}, session.headers());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
}

int mails(const std::string& kind, const std::string& email) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, email});
}

std::string statusOf(const std::string& id) { return textColumn("SELECT status FROM subscriptions WHERE id = ?", {id}).at(0); }

HttpResult act(const Session& session, const std::string& id, const std::string& action, const nlohmann::json& body = nlohmann::json::object()) {
    return sendJson(env().port, "POST", "/api/v1/account/subscriptions/" + id + "/" + action, body, session.headers());
}

} // namespace

TEST(SubscriptionDunning, ADeclinedRenewalKeepsAccessForTheGraceThenRefusesItAndASuccessRestoresIt) {
    auto s = subscribe();
    const auto email = s.account.email;
    ASSERT_EQ(validate(s.session, s.slug)["status"], "active");

    // Declined, and declined again 19 times (the provider retrying): one past-due episode, one mail.
    for (int i = 0; i < 20; ++i) ASSERT_EQ(renew(s.providerId, "declined").status, 200);
    EXPECT_EQ(statusOf(s.subscriptionId), "past_due");
    EXPECT_EQ(mails("payment_failed", email), 1);
    auto during = validate(s.session, s.slug);
    EXPECT_EQ(during["valid"], true);
    EXPECT_EQ(during["status"], "past_due");
    EXPECT_EQ(during["daysRemaining"], 14);
    EXPECT_TRUE(std::string(during["message"]).starts_with("Payment failed: update your payment method by ")) << during.dump();
    // The dashboard warns, and the subscription cannot change plan until it is paid.
    auto dashboard = getJson("/api/v1/account/dashboard", s.session.headers()).json();
    auto item = dashboard["subscriptions"][0];
    EXPECT_EQ(item["status"], "past_due");
    EXPECT_FALSE(item["access_ends_at"].is_null());
    EXPECT_EQ(item["allowed_actions"], nlohmann::json({"cancel_at_period_end", "cancel_now"}));

    {
        // Twelve days on: the reminder goes once; fifteen days on: access is refused.
        ClockShift later(std::chrono::hours(24 * 12));
        EXPECT_TRUE(eventually([&] { return mails("payment_reminder", email) == 1; })) << "no payment_reminder";
        later.advance(std::chrono::hours(24 * 3));
        auto fresh = signIn(s.account, newClientIp());
        auto after = validate(fresh, s.slug);
        EXPECT_EQ(after["valid"], false);
        EXPECT_EQ(after["status"], "past_due");
        EXPECT_EQ(after["message"], "Payment overdue: update your payment method to restore access.");
        EXPECT_EQ(mails("payment_reminder", email), 1);
    }

    // The card is updated and the renewal succeeds: active at once, the money in the ledger, a receipt.
    s.session = signIn(s.account, newClientIp()); // the fifteen days' housekeeping may have ended the old session
    ASSERT_EQ(renew(s.providerId, "succeeded").status, 200);
    EXPECT_EQ(statusOf(s.subscriptionId), "active");
    EXPECT_EQ(textColumn("SELECT COALESCE(CAST(past_due_since AS TEXT), 'none') FROM subscriptions WHERE id = ?", {s.subscriptionId})
                  .at(0),
              "none");
    EXPECT_EQ(validate(s.session, s.slug)["status"], "active");
    EXPECT_EQ(mails("renewal_receipt", email), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ? AND kind = 'subscription_payment'",
                        {s.subscriptionId}),
              2); // the first payment and the recovered renewal
    // The same success again changes nothing.
    ASSERT_EQ(renew(s.providerId, "succeeded").status, 200);
    EXPECT_EQ(mails("payment_failed", email), 1);

    // Bad input to the test page: a clear error, nothing changed.
    EXPECT_EQ(renew(s.providerId, "maybe").status, 422);
    EXPECT_EQ(renew("sub_local_nosuch", "succeeded").status, 404);
}

TEST(SubscriptionDunning, StripesRepeatedFailuresMailOnceAndAPaidInvoiceRecovers) {
    const int port = fakeStripeServer();
    auto user = createUser("stripe-dunning");
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    const std::string sub = unique("sub_dunning"), invoice = unique("in_dunning");
    const std::int64_t now = Poco::Timestamp().epochTime();
    auto deliver = [&](const std::string& type, const nlohmann::json& object) {
        return deliverStripeEvent(port, kFakeStripeWebhookSecret, stripeEvent(type, object)).status;
    };
    ASSERT_EQ(deliver("customer.subscription.created",
                      {{"id", sub},
                       {"object", "subscription"},
                       {"customer", "cus_dunning"},
                       {"status", "active"},
                       {"metadata", {{"user_id", user.id}, {"product_id", product.id}, {"pricing_plan_id", planId}}},
                       {"items", {{"data", nlohmann::json::array({{{"current_period_start", now - 100}, {"current_period_end", now + 86400}}})}}}}),
              200);
    const nlohmann::json failed = {{"id", invoice},
                                   {"object", "invoice"},
                                   {"billing_reason", "subscription_cycle"},
                                   {"amount_due", 900},
                                   {"amount_paid", 0},
                                   {"currency", "nzd"},
                                   {"parent", {{"type", "subscription_details"}, {"subscription_details", {{"subscription", sub}}}}}};
    for (int i = 0; i < 20; ++i) ASSERT_EQ(deliver("invoice.payment_failed", failed), 200);
    EXPECT_EQ(textColumn("SELECT status FROM subscriptions WHERE provider_subscription_id = ?", {sub}).at(0), "past_due");
    EXPECT_EQ(mails("payment_failed", user.email), 1);
    // Stripe's own word for it (past_due, then unpaid) is stored the same way.
    ASSERT_EQ(deliver("customer.subscription.updated",
                      {{"id", sub}, {"object", "subscription"}, {"status", "unpaid"}, {"customer", "cus_dunning"}}),
              200);
    EXPECT_EQ(textColumn("SELECT status FROM subscriptions WHERE provider_subscription_id = ?", {sub}).at(0), "past_due");
    auto paid = failed;
    paid["amount_paid"] = 900;
    paid["status"] = "paid";
    ASSERT_EQ(deliver("invoice.paid", paid), 200);
    EXPECT_EQ(textColumn("SELECT status FROM subscriptions WHERE provider_subscription_id = ?", {sub}).at(0), "active");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE entry_key = ?", {"stripe:invoice:" + invoice}), 1);
}

TEST(SubscriptionCancel, AtPeriodEndThenResumeThenNow) {
    auto s = subscribe();
    const auto email = s.account.email;
    // Bad input and refused moves first: each a clear error that changes nothing.
    EXPECT_EQ(act(s.session, s.subscriptionId, "cancel").status, 422);                                  // no choice given
    EXPECT_EQ(act(s.session, s.subscriptionId, "cancel", {{"at_period_end", "yes"}}).status, 422);      // not a boolean
    auto notScheduled = act(s.session, s.subscriptionId, "resume");
    EXPECT_EQ(notScheduled.status, 409);
    EXPECT_EQ(notScheduled.json()["code"], "invalid_transition");
    auto stranger = signIn(createUser("stranger"), newClientIp());
    EXPECT_EQ(act(stranger, s.subscriptionId, "cancel", {{"at_period_end", false}}).status, 404);
    EXPECT_EQ(act(s.session, "not-a-uuid", "cancel", {{"at_period_end", false}}).status, 404);
    EXPECT_EQ(statusOf(s.subscriptionId), "active");
    EXPECT_EQ(mails("subscription_cancelled", email), 0);

    auto scheduled = act(s.session, s.subscriptionId, "cancel", {{"at_period_end", true}});
    ASSERT_EQ(scheduled.status, 200) << scheduled.body;
    auto item = scheduled.json();
    EXPECT_EQ(item["status"], "active");
    EXPECT_EQ(item["cancel_at_period_end"], true);
    EXPECT_EQ(item["access_ends_at"], item["current_period_end"]);
    EXPECT_EQ(item["allowed_actions"], nlohmann::json({"cancel_now", "resume"}));
    EXPECT_EQ(validate(s.session, s.slug)["valid"], true); // access lasts until the period end
    EXPECT_EQ(mails("subscription_cancelled", email), 1);
    EXPECT_EQ(act(s.session, s.subscriptionId, "cancel", {{"at_period_end", true}}).status, 409); // already scheduled

    auto resumed = act(s.session, s.subscriptionId, "resume");
    ASSERT_EQ(resumed.status, 200) << resumed.body;
    EXPECT_EQ(resumed.json()["cancel_at_period_end"], false);
    EXPECT_EQ(mails("subscription_resumed", email), 1);

    auto now = act(s.session, s.subscriptionId, "cancel", {{"at_period_end", false}});
    ASSERT_EQ(now.status, 200) << now.body;
    EXPECT_EQ(now.json()["status"], "cancelled");
    EXPECT_FALSE(now.json()["ended_at"].is_null());
    EXPECT_EQ(validate(s.session, s.slug)["valid"], false);
    EXPECT_EQ(mails("subscription_cancelled", email), 2);
    EXPECT_EQ(act(s.session, s.subscriptionId, "resume").status, 409); // ended stays ended
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ? AND action LIKE 'subscription.%'", {s.subscriptionId}), 3);
}

TEST(SubscriptionPlanChange, MonthlyToYearlyChargesTheProrationNowAndEveryRefusedChangeChangesNothing) {
    auto s = subscribe(1500);
    const std::string yearly = storefront::db::newId();
    execSql("INSERT INTO pricing_plans (id, product_id, name, price_amount, currency, billing_frequency_value, "
            "billing_frequency_unit, sort_order, created_at, updated_at) VALUES (?, ?, 'Yearly', 15000, 'NZD', 1, 'year', 1, "
            "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            {yearly, s.productId});
    const std::string base = "/api/v1/account/subscriptions/" + s.subscriptionId;
    auto preview = getJson(base + "/change-preview?priceId=" + yearly, s.session.headers());
    ASSERT_EQ(preview.status, 200) << preview.body;
    auto p = preview.json();
    // Seconds into a 30-day month: nearly the whole month is credited.
    EXPECT_EQ(p["currency"], "NZD");
    EXPECT_EQ(p["charge"], 15000);
    EXPECT_GE(p["credit"].get<int>(), 1499);
    EXPECT_EQ(p["amount_due_now"].get<int>(), 15000 - p["credit"].get<int>());
    EXPECT_EQ(p["next_renewal_amount"], 15000);

    // Refused: the same plan, another product's plan, no plan, a made-up plan.
    auto same = getJson(base + "/change-preview?priceId=" + s.planId, s.session.headers());
    EXPECT_EQ(same.status, 409);
    EXPECT_EQ(same.json()["code"], "already_on_plan");
    EXPECT_EQ(getJson(base + "/change-preview?priceId=" + kMonthlyPlanId, s.session.headers()).status, 422);
    EXPECT_EQ(getJson(base + "/change-preview", s.session.headers()).status, 422);
    EXPECT_EQ(act(s.session, s.subscriptionId, "change-plan", {{"priceId", "nope"}}).status, 422);
    EXPECT_EQ(act(s.session, s.subscriptionId, "change-plan", {{"priceId", s.planId}}).status, 409);
    EXPECT_EQ(textColumn("SELECT CAST(pricing_plan_id AS TEXT) FROM subscriptions WHERE id = ?", {s.subscriptionId}).at(0), s.planId);

    auto changed = act(s.session, s.subscriptionId, "change-plan", {{"priceId", yearly}});
    ASSERT_EQ(changed.status, 200) << changed.body;
    EXPECT_EQ(changed.json()["pricing_plan_id"], yearly);
    EXPECT_EQ(changed.json()["plan"]["name"], "Yearly");
    // The charge is in the ledger and has a tax invoice; the customer is told.
    const auto charged = textColumn("SELECT CAST(amount AS TEXT) FROM payment_ledger WHERE subscription_id = ? AND "
                                    "kind = 'subscription_payment' ORDER BY occurred_at DESC, entry_key DESC",
                                    {s.subscriptionId});
    ASSERT_EQ(charged.size(), 2u);
    EXPECT_GE(std::stoi(charged[0]) + std::stoi(charged[1]), 15000);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE subscription_id = ? AND kind = 'invoice'", {s.subscriptionId}), 2);
    EXPECT_EQ(mails("plan_changed", s.account.email), 1);

    // Past due: pay first.
    ASSERT_EQ(renew(s.providerId, "declined").status, 200);
    auto overdue = getJson(base + "/change-preview?priceId=" + s.planId, s.session.headers());
    EXPECT_EQ(overdue.status, 409);
    EXPECT_EQ(overdue.json()["code"], "past_due");
}

TEST(SubscriptionTrial, ATrialStartsFreeOncePerCustomerAndProduct) {
    auto s = subscribe(1500, 14);
    EXPECT_EQ(statusOf(s.subscriptionId), "trialing");
    auto v = validate(s.session, s.slug);
    EXPECT_EQ(v["valid"], true);
    EXPECT_EQ(v["status"], "trial");
    EXPECT_EQ(v["daysRemaining"], 14);
    // Nothing was charged: no money in the ledger, no tax invoice.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ?", {s.subscriptionId}), 0);
    {
        ClockShift later(std::chrono::hours(24 * 12));
        EXPECT_TRUE(eventually([&] { return mails("trial_ending", s.account.email) == 1; })) << "no trial_ending";
    }
    // The housekeeping of those twelve days may have ended the session: a fresh one.
    s.session = signIn(s.account, newClientIp());
    // Cancelled, then bought again: the second subscription starts paid.
    ASSERT_EQ(act(s.session, s.subscriptionId, "cancel", {{"at_period_end", false}}).status, 200);
    auto again = startCheckout(s.session, {{"productSlug", s.slug}, {"priceId", s.planId}});
    ASSERT_EQ(again.status, 200) << again.body;
    ASSERT_EQ(pressButton(again.json()["url"], "pay").status, 303);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND status = 'active' AND trial_end IS NULL",
                        {s.account.id}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger l JOIN subscriptions x ON x.id = l.subscription_id "
                        "WHERE x.user_id = ? AND l.amount = 1500",
                        {s.account.id}),
              1);
}

TEST(SubscriptionStaff, StaffCancelWithAReasonIsAuditedAndTheListFiltersPastDue) {
    auto s = subscribe();
    ASSERT_EQ(renew(s.providerId, "declined").status, 200);
    auto list = getJson("/api/v1/admin/subscriptions?status=past_due&q=" + s.account.email, staff());
    ASSERT_EQ(list.status, 200) << list.body;
    auto page = list.json();
    ASSERT_EQ(page["items"].size(), 1u);
    EXPECT_EQ(page["items"][0]["id"], s.subscriptionId);
    EXPECT_FALSE(page["items"][0]["past_due_since"].is_null());
    const std::string path = "/api/v1/admin/subscriptions/" + s.subscriptionId + "/cancel";
    EXPECT_EQ(postJson(path, {{"at_period_end", false}}, staff()).status, 422);                        // no reason
    EXPECT_EQ(postJson(path, {{"at_period_end", false}, {"reason", "two\nlines"}}, staff()).status, 422); // not one line
    EXPECT_EQ(postJson(path, {{"at_period_end", false}, {"reason", "x"}}, s.session.headers()).status, 403);
    EXPECT_EQ(statusOf(s.subscriptionId), "past_due");
    auto cancelled = postJson(path, {{"at_period_end", false}, {"reason", "Customer asked by phone"}}, staff());
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    EXPECT_EQ(cancelled.json()["status"], "cancelled");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ? AND action = 'subscription.cancelled' AND "
                        "detail LIKE '%Customer asked by phone%'",
                        {s.subscriptionId}),
              1);
}

TEST(SubscriptionRefund, StaffRefundPartThenTheRestOfTheLatestPaymentOnceEach) {
    auto s = subscribe(1500);
    const std::string path = "/api/v1/admin/subscriptions/" + s.subscriptionId + "/refunds";
    auto keyed = [](const std::string& key) {
        auto h = staff();
        h["Idempotency-Key"] = key;
        return h;
    };
    // Bad input first: each a clear 4xx that changes nothing.
    EXPECT_EQ(postJson(path, {{"reason", "no amount"}}, staff()).status, 422);
    EXPECT_EQ(postJson(path, {{"amount", 0}}, staff()).status, 422);
    EXPECT_EQ(postJson(path, {{"amount", 100}, {"reason", "two\r\nlines"}}, staff()).status, 422);
    EXPECT_EQ(postJson(path, {{"amount", 1501}}, staff()).status, 422);
    EXPECT_EQ(postJson(path, {{"amount", 100}}, s.session.headers()).status, 403);
    EXPECT_EQ(postJson("/api/v1/admin/subscriptions/" + storefront::db::newId() + "/refunds", {{"amount", 100}}, staff()).status, 404);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscription_refunds r JOIN subscription_payments p ON p.id = r.payment_id "
                        "WHERE p.subscription_id = ?",
                        {s.subscriptionId}),
              0);

    const std::string key = unique("refund-key");
    auto first = postJson(path, {{"amount", 500}, {"reason", "Charged twice"}}, keyed(key));
    ASSERT_EQ(first.status, 201) << first.body;
    EXPECT_EQ(first.json()["status"], "succeeded");
    auto again = postJson(path, {{"amount", 500}, {"reason", "Charged twice"}}, keyed(key));
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.json()["id"], first.json()["id"]); // the same refund, not a second one
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ? AND kind = 'refund' AND amount = -500",
                        {s.subscriptionId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE subscription_id = ? AND kind = 'credit_note'", {s.subscriptionId}), 1);
    EXPECT_EQ(mails("refund", s.account.email), 1);
    EXPECT_EQ(postJson(path, {{"amount", 1001}}, staff()).status, 422); // 1000 is left
    ASSERT_EQ(postJson(path, {{"amount", 1000}}, staff()).status, 201);
    auto none = postJson(path, {{"amount", 1}}, staff());
    EXPECT_EQ(none.status, 409);
    EXPECT_EQ(none.json()["code"], "already_refunded");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ? AND action = 'subscription.refunded'", {s.subscriptionId}), 2);
}

TEST(SubscriptionRefund, ARefundMadeInStripesDashboardIsMatchedToItsInvoiceAndEntersTheLedgerOnce) {
    const int port = fakeStripeServer();
    auto user = createUser("stripe-refund");
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    const std::string sub = unique("sub_refund"), invoice = unique("in_refund"), intent = unique("pi_refund");
    const std::int64_t now = Poco::Timestamp().epochTime();
    auto deliver = [&](const std::string& type, const nlohmann::json& object) {
        return deliverStripeEvent(port, kFakeStripeWebhookSecret, stripeEvent(type, object)).status;
    };
    ASSERT_EQ(deliver("customer.subscription.created",
                      {{"id", sub},
                       {"object", "subscription"},
                       {"customer", "cus_refund"},
                       {"status", "active"},
                       {"metadata", {{"user_id", user.id}, {"product_id", product.id}, {"pricing_plan_id", planId}}},
                       {"items", {{"data", nlohmann::json::array({{{"current_period_start", now}, {"current_period_end", now + 86400}}})}}}}),
              200);
    ASSERT_EQ(deliver("invoice.paid", {{"id", invoice},
                                       {"object", "invoice"},
                                       {"billing_reason", "subscription_cycle"},
                                       {"amount_paid", 900},
                                       {"currency", "nzd"},
                                       {"customer_email", user.email},
                                       {"parent", {{"type", "subscription_details"}, {"subscription_details", {{"subscription", sub}}}}}}),
              200);
    // The current API names the payment in its own event.
    ASSERT_EQ(deliver("invoice_payment.paid", {{"id", unique("inpay")},
                                               {"object", "invoice_payment"},
                                               {"invoice", invoice},
                                               {"status", "paid"},
                                               {"payment", {{"type", "payment_intent"}, {"payment_intent", intent}}}}),
              200);
    const nlohmann::json refund = {{"id", unique("re_dash")}, {"object", "refund"}, {"amount", 300}, {"currency", "nzd"},
                                   {"status", "succeeded"}, {"payment_intent", intent}};
    for (int i = 0; i < 3; ++i) ASSERT_EQ(deliver(i == 0 ? "refund.created" : "charge.refund.updated", refund), 200);
    const auto subscriptionId = textColumn("SELECT CAST(id AS TEXT) FROM subscriptions WHERE provider_subscription_id = ?", {sub}).at(0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ? AND kind = 'refund' AND amount = -300",
                        {subscriptionId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE subscription_id = ? AND kind = 'credit_note'", {subscriptionId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM subscription_payments WHERE provider_invoice_id = ? AND refunded_amount = 300", {invoice}),
              1);
}

TEST(SubscriptionStripeActions, CancelResumeAndAPlanChangeAskStripeFirstAndAFailureChangesNothing) {
    const int port = fakeStripeServer();
    auto& stripe = fakeStripe();
    auto account = createUser("stripe-actions");
    auto session = signIn(account, newClientIp());
    std::string monthly;
    auto product = createSubscriptionProduct(monthly, 1500);
    const std::string yearly = storefront::db::newId();
    execSql("INSERT INTO pricing_plans (id, product_id, name, price_amount, currency, billing_frequency_value, "
            "billing_frequency_unit, sort_order, created_at, updated_at) VALUES (?, ?, 'Yearly', 15000, 'NZD', 1, 'year', 1, "
            "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            {yearly, product.id});
    const std::string sub = unique("sub_actions");
    const std::int64_t now = Poco::Timestamp().epochTime();
    ASSERT_EQ(deliverStripeEvent(port, kFakeStripeWebhookSecret,
                                 stripeEvent("customer.subscription.created",
                                             {{"id", sub},
                                              {"object", "subscription"},
                                              {"customer", "cus_actions"},
                                              {"status", "active"},
                                              {"metadata", {{"user_id", account.id}, {"product_id", product.id}, {"pricing_plan_id", monthly}}},
                                              {"items", {{"data", nlohmann::json::array({{{"current_period_start", now - 86400},
                                                                                          {"current_period_end", now + 29 * 86400}}})}}}}))
                  .status,
              200);
    const auto id = textColumn("SELECT CAST(id AS TEXT) FROM subscriptions WHERE provider_subscription_id = ?", {sub}).at(0);
    auto call = [&](const std::string& action, const nlohmann::json& body) {
        return sendJson(port, "POST", "/api/v1/account/subscriptions/" + id + "/" + action, body, session.headers());
    };

    // Stripe fails: 502, nothing changed here.
    stripe.failNext(500, "Stripe is down", "api_error", "/v1/subscriptions/");
    auto failed = call("cancel", {{"at_period_end", true}});
    EXPECT_EQ(failed.status, 502) << failed.body;
    EXPECT_EQ(textColumn("SELECT CASE WHEN cancel_at_period_end THEN 'yes' ELSE 'no' END FROM subscriptions WHERE id = ?", {id}).at(0), "no");

    stripe.clearRequests();
    ASSERT_EQ(call("cancel", {{"at_period_end", true}}).status, 200);
    auto scheduled = stripe.requests("POST", "/v1/subscriptions/" + sub);
    ASSERT_EQ(scheduled.size(), 1u);
    EXPECT_EQ(scheduled[0].field("cancel_at_period_end"), "true");
    ASSERT_EQ(call("resume", nlohmann::json::object()).status, 200);
    EXPECT_EQ(stripe.requests("POST", "/v1/subscriptions/" + sub).back().field("cancel_at_period_end"), "false");

    // Monthly to yearly: the item's new inline price, prorated and invoiced now, only if it is paid.
    auto changed = call("change-plan", {{"priceId", yearly}});
    ASSERT_EQ(changed.status, 200) << changed.body;
    auto update = stripe.requests("POST", "/v1/subscriptions/" + sub).back();
    EXPECT_EQ(update.field("items[0][id]"), "si_fake_" + sub.substr(4));
    EXPECT_EQ(update.field("items[0][price_data][product]"), "prod_fake_1");
    EXPECT_EQ(update.field("items[0][price_data][unit_amount]"), "15000");
    EXPECT_EQ(update.field("items[0][price_data][recurring][interval]"), "year");
    EXPECT_EQ(update.field("proration_behavior"), "always_invoice");
    EXPECT_EQ(update.field("payment_behavior"), "pending_if_incomplete");
    EXPECT_FALSE(update.header("idempotency-key").empty());
    EXPECT_EQ(textColumn("SELECT CAST(pricing_plan_id AS TEXT) FROM subscriptions WHERE id = ?", {id}).at(0), yearly);

    ASSERT_EQ(call("cancel", {{"at_period_end", false}}).status, 200);
    EXPECT_EQ(stripe.requests("DELETE", "/v1/subscriptions/" + sub).size(), 1u);
    EXPECT_EQ(statusOf(id), "cancelled");
}

TEST(SubscriptionTrial, AStripeCheckoutOfATrialPlanAsksStripeForTheTrialOnce) {
    const int port = fakeStripeServer();
    auto& stripe = fakeStripe();
    std::string planId;
    auto product = createSubscriptionProduct(planId, 1500);
    execSql("UPDATE pricing_plans SET trial_days = 30 WHERE id = ?", {planId});
    auto account = createUser("stripe-trial");
    auto session = signIn(account, newClientIp());
    stripe.clearRequests();
    auto started = startCheckout(session, {{"productSlug", product.slug}, {"priceId", planId}}, port);
    ASSERT_EQ(started.status, 200) << started.body;
    auto sent = stripe.requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].field("subscription_data[trial_period_days]"), "30");
    EXPECT_EQ(sent[0].field("line_items[0][price_data][unit_amount]"), "1500"); // the price after the trial
    // The customer had a trial of this product before: the next checkout starts paid.
    execSql("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, provider_subscription_id, "
            "trial_end, created_at, updated_at) VALUES (?, ?, ?, ?, 'cancelled', 'stripe', ?, '2026-01-15T00:00:00.000Z', "
            "'2026-01-01T00:00:00.000Z', '2026-01-16T00:00:00.000Z')",
            {storefront::db::newId(), account.id, product.id, planId, unique("sub_old_trial")});
    stripe.clearRequests();
    ASSERT_EQ(startCheckout(session, {{"productSlug", product.slug}, {"priceId", planId}}, port).status, 200);
    auto second = stripe.requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(second.size(), 1u);
    EXPECT_FALSE(second[0].has("subscription_data[trial_period_days]"));
}

// Found in a browser walk: "Decline the next renewal" on the TEST MODE billing page renewed at
// once (a yearly plan bought minutes earlier went past due and jumped a period). It sets the
// card's outcome of the renewal at the period's end, as its label says; "Renew now" stays the way
// to play a renewal at once.
TEST(SubscriptionDunning, DecliningTheNextRenewalChargesNothingNowAndDeclinesAtThePeriodEnd) {
    auto s = subscribe(1500);
    const auto periodEnd = textColumn("SELECT CAST(current_period_end AS TEXT) FROM subscriptions WHERE id = ?", {s.subscriptionId}).at(0);
    const auto charges = [&] {
        return countRows("SELECT COUNT(*) FROM payment_ledger WHERE subscription_id = ? AND kind = 'subscription_payment'",
                         {s.subscriptionId});
    };
    const auto before = charges();
    const auto outcome = [&](const std::string& id, const std::string& form) {
        return http(env().port, "POST", "/pay/test/subscriptions/" + id + "/outcome", form,
                    {{"Content-Type", "application/x-www-form-urlencoded"}});
    };
    EXPECT_EQ(outcome(s.providerId, "outcome=maybe").status, 422);
    EXPECT_EQ(outcome("sub_local_nope", "outcome=declined").status, 404);
    auto set = outcome(s.providerId, "outcome=declined");
    ASSERT_EQ(set.status, 200) << set.body;
    EXPECT_EQ(set.json()["next_renewal_outcome"], "declined");
    // Nothing now: still active, the same period, no charge, no failure mail.
    EXPECT_EQ(statusOf(s.subscriptionId), "active");
    EXPECT_EQ(textColumn("SELECT CAST(current_period_end AS TEXT) FROM subscriptions WHERE id = ?", {s.subscriptionId}).at(0), periodEnd);
    EXPECT_EQ(charges(), before);
    EXPECT_EQ(mails("payment_failed", s.account.email), 0);
    // At the period's end the renewal job plays it: declined, past due.
    ClockShift later(std::chrono::seconds(storefront::db::epochFromTimestamp(periodEnd) - testClock().epochSeconds() + 3600));
    EXPECT_TRUE(eventually([&] { return statusOf(s.subscriptionId) == "past_due"; }, 30)) << statusOf(s.subscriptionId);
    EXPECT_EQ(charges(), before);
}

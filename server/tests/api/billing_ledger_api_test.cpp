// The payments ledger, refunds and disputes (docs/billing.md, "The ledger, refunds and disputes"):
// staff refunds through the local provider and through Stripe (the fake), Stripe's refund, dispute
// and invoice events in the pinned API version's shape, and the revenue card read from the ledger.
#include "api/admin_support.h"
#include "api/fake_stripe.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <chrono>
#include <thread>

using namespace testing_support;

// A named namespace, not an anonymous one: the API tests are compiled in batches (unity build),
// and billing_events_api_test.cpp has helpers of the same names.
namespace ledger_api_test {

std::int64_t nowUnix() { return Poco::Timestamp().epochTime(); }

// ---- arranging paid orders -------------------------------------------------------------------

struct PaidOrder {
    std::string id, productId, paymentIntent;
};

std::string orderOfCheckout(const std::string& checkoutId) {
    return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
}

// A hardware order paid through the local provider's TEST MODE page.
PaidOrder paidLocally(int stock, std::int64_t price, int quantity) {
    auto product = createHardware(stock, price);
    auto buyer = newBuyer("refund-buyer");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", quantity}});
    EXPECT_EQ(checkout.status, 200) << checkout.body;
    EXPECT_EQ(pressButton(checkout.json()["url"], "pay").status, 303);
    return {orderOfCheckout(checkout.json()["checkoutId"]), product.id, ""};
}

HttpResult deliver(const nlohmann::json& event) { return deliverStripeEvent(fakeStripeServer(), kFakeStripeWebhookSecret, event); }

nlohmann::json event(const std::string& type, const nlohmann::json& object, std::string id = "") {
    return stripeEvent(type, object, id.empty() ? unique("evt_ledger_") : id);
}

// A hardware order paid through Stripe: the checkout on the Stripe server, then Stripe's
// checkout.session.completed with its payment intent.
PaidOrder paidThroughStripe(std::int64_t price, int quantity = 1) {
    auto product = createHardware(10, price);
    auto buyer = newBuyer("stripe-refund");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", quantity}}, fakeStripeServer());
    EXPECT_EQ(checkout.status, 200) << checkout.body;
    const std::string checkoutId = checkout.json()["checkoutId"], sessionId = checkout.json()["sessionId"];
    const auto paymentIntent = unique("pi_ledger_");
    auto done = deliver(event("checkout.session.completed",
                              {{"id", sessionId},
                               {"object", "checkout.session"},
                               {"client_reference_id", checkoutId},
                               {"mode", "payment"},
                               {"status", "complete"},
                               {"payment_status", "paid"},
                               {"payment_intent", paymentIntent},
                               {"amount_total", price * quantity},
                               {"currency", "nzd"},
                               {"metadata", {{"checkout_id", checkoutId}}}}));
    EXPECT_EQ(done.status, 200) << done.body;
    return {orderOfCheckout(checkoutId), product.id, paymentIntent};
}

// ---- reading -------------------------------------------------------------------------------------

HttpResult refund(const std::string& orderId, const nlohmann::json& body, const Headers& extra = {}, int port = 0) {
    Headers h = callers().admin;
    for (const auto& [k, v] : extra) h[k] = v;
    return sendJson(port ? port : env().port, "POST", "/api/v1/admin/orders/" + orderId + "/refunds", body, h);
}

nlohmann::json order(const std::string& id) {
    auto r = getJson("/api/v1/admin/orders/" + id, callers().admin);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["order"];
}

std::int64_t ledgerSum(const std::string& orderId) {
    return countRows("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_ledger WHERE order_id = ?", {orderId});
}
std::int64_t ledgerRows(const std::string& orderId) {
    return countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ?", {orderId});
}
std::int64_t refundRows(const std::string& orderId) {
    return countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ?", {orderId});
}
std::int64_t refundMails(const std::string& orderId) {
    return countRows("SELECT COUNT(*) FROM mail_outbox m JOIN orders o ON o.customer_email = m.to_address "
                     "WHERE m.kind = 'refund' AND o.id = ?",
                     {orderId});
}
std::int64_t ledgerTotal(const std::string& currency) {
    return countRows("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_ledger WHERE currency = ?", {currency});
}

TEST(LedgerApi, APaidOrderEntersTheLedgerOnceAndAPartialThenAFullRefundTakeItOut) {
    auto paid = paidLocally(5, 2500, 2);
    EXPECT_EQ(ledgerSum(paid.id), 5000);
    EXPECT_EQ(ledgerRows(paid.id), 1);

    auto partial = refund(paid.id, {{"amount", 1200}, {"reason", "One arrived scratched"}});
    ASSERT_EQ(partial.status, 200) << partial.body;
    auto j = partial.json()["order"];
    EXPECT_EQ(j["status"], "paid");
    EXPECT_EQ(j["refunded_amount"], 1200);
    ASSERT_EQ(j["refunds"].size(), 1u);
    EXPECT_EQ(j["refunds"][0]["amount"], 1200);
    EXPECT_EQ(j["refunds"][0]["status"], "succeeded");
    EXPECT_EQ(j["refunds"][0]["reason"], "One arrived scratched");
    EXPECT_EQ(j["refunds"][0]["source"], "staff");
    EXPECT_EQ(j["refunds"][0]["actor_email"], callers().adminEmail);
    EXPECT_TRUE(j["refunds"][0]["provider_refund_id"].get<std::string>().starts_with("re_local_"));
    EXPECT_EQ(ledgerSum(paid.id), 3800);
    EXPECT_EQ(refundMails(paid.id), 1);
    EXPECT_EQ(auditCount("order.refunded", paid.id), 1);

    auto rest = refund(paid.id, {{"amount", 3800}});
    ASSERT_EQ(rest.status, 200) << rest.body;
    j = rest.json()["order"];
    EXPECT_EQ(j["status"], "refunded");
    EXPECT_EQ(j["refunded_amount"], 5000);
    EXPECT_EQ(j["refunds"].size(), 2u);
    EXPECT_EQ(ledgerSum(paid.id), 0);
    EXPECT_EQ(refundMails(paid.id), 2);
    EXPECT_EQ(auditCount("order.refunded", paid.id), 2);
    EXPECT_EQ(j["history"].back()["to_status"], "refunded");

    // Each refund issued a credit note from the tax invoice sequence, adjusting the order's invoice,
    // in the refund's transaction; the refund mail names and links it.
    const auto invoiceNumber = textColumn("SELECT number FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {paid.id});
    ASSERT_EQ(invoiceNumber.size(), 1u);
    const auto notes = textColumn(
        "SELECT c.number FROM tax_invoices c JOIN tax_invoices i ON i.id = c.adjusts_id "
        "WHERE c.order_id = ? AND c.kind = 'credit_note' AND i.number = ? ORDER BY c.seq",
        {paid.id, invoiceNumber.at(0)});
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(textColumn("SELECT CAST(total_amount AS TEXT) FROM tax_invoices WHERE number = ?", {notes.at(0)}).at(0), "1200");
    const auto mails = textColumn(
        "SELECT body_text FROM mail_outbox WHERE kind = 'refund' AND body_text LIKE ? ORDER BY created_at", {"%" + notes.at(1) + "%"});
    ASSERT_EQ(mails.size(), 1u);
    EXPECT_NE(mails.at(0).find("/account/invoices/" + notes.at(1)), std::string::npos) << mails.at(0);

    // Nothing is left: 422 with the remainder, and nothing changes.
    auto more = refund(paid.id, {{"amount", 1}});
    EXPECT_EQ(more.status, 422) << more.body;
    EXPECT_EQ(more.json()["remaining_amount"], 0);
    EXPECT_EQ(refundRows(paid.id), 2);

    // Staff cannot set refunded by hand.
    auto byHand = patchJson("/api/v1/admin/orders/" + paid.id, {{"status", "refunded"}}, callers().admin);
    EXPECT_EQ(byHand.status, 422) << byHand.body;
}

TEST(LedgerApi, MoreThanTheRemainderIsRefusedWithWhatIsLeftAndChangesNothing) {
    auto paid = paidLocally(5, 1000, 3);
    ASSERT_EQ(refund(paid.id, {{"amount", 1000}}).status, 200);
    auto over = refund(paid.id, {{"amount", 2001}});
    ASSERT_EQ(over.status, 422) << over.body;
    auto j = over.json();
    EXPECT_EQ(j["code"], "validation_failed");
    EXPECT_EQ(j["remaining_amount"], 2000);
    EXPECT_NE(j["message"].get<std::string>().find("20.00"), std::string::npos) << j["message"];
    EXPECT_TRUE(j["fields"].contains("amount"));
    EXPECT_EQ(refundRows(paid.id), 1);
    EXPECT_EQ(ledgerSum(paid.id), 2000);
    EXPECT_EQ(order(paid.id)["refunded_amount"], 1000);
}

TEST(LedgerApi, BadInputIsRefusedAndChangesNothing) {
    auto paid = paidLocally(5, 1000, 1);
    const auto path = "/api/v1/admin/orders/" + paid.id + "/refunds";
    expectStaffOnly("POST", path, {{"amount", 100}}); // visitor 401, customer 403, admin at aal1 403
    for (const auto& body : {nlohmann::json{{"amount", -5}}, nlohmann::json{{"amount", 0}}, nlohmann::json{{"amount", 12.5}},
                             nlohmann::json{{"amount", "100"}}, nlohmann::json{{"reason", "no amount"}},
                             nlohmann::json{{"amount", 100}, {"restock", "yes"}},
                             nlohmann::json{{"amount", 100}, {"reason", std::string(501, 'x')}}}) {
        auto r = refund(paid.id, body);
        EXPECT_EQ(r.status, 422) << body.dump() << " " << r.body;
        EXPECT_EQ(r.json()["code"], "validation_failed");
    }
    EXPECT_EQ(refund(paid.id, nullptr).status, 400); // no body at all
    auto unknown = refund(storefront::db::newId(), {{"amount", 100}});
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "order_not_found");
    EXPECT_EQ(refund("not-a-uuid", {{"amount", 100}}).status, 404);
    EXPECT_EQ(refund(paid.id, {{"amount", 100}}, {{"Idempotency-Key", std::string(300, 'k')}}).status, 400);
    EXPECT_EQ(refundRows(paid.id), 0);
    EXPECT_EQ(ledgerSum(paid.id), 1000);
    EXPECT_EQ(auditCount("order.refunded", paid.id), 0);

    // An order nobody paid for has nothing to refund.
    auto pending = insertOrder("pending", 1000, testClock().nowTimestamp());
    auto r = refund(pending.id, {{"amount", 100}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(r.json()["code"], "order_not_refundable");
}

TEST(LedgerApi, RestockGivesTheItemsBackExactlyOnce) {
    auto paid = paidLocally(5, 1000, 2);
    ASSERT_EQ(stockOf(paid.productId), 3);
    // Restocking without naming lines returns the whole order: only with the refund that completes it.
    auto partial = refund(paid.id, {{"amount", 500}, {"restock", true}});
    ASSERT_EQ(partial.status, 422) << partial.body;
    EXPECT_TRUE(partial.json()["fields"].contains("restock"));
    EXPECT_EQ(refundRows(paid.id), 0);
    EXPECT_EQ(stockOf(paid.productId), 3);
    ASSERT_EQ(refund(paid.id, {{"amount", 500}}).status, 200);
    ASSERT_EQ(refund(paid.id, {{"amount", 1500}, {"restock", true}}).status, 200);
    EXPECT_EQ(stockOf(paid.productId), 5);
    const auto restocked = order(paid.id); // kept: the loop reads into it
    for (const auto& item : restocked["items"]) EXPECT_EQ(item["restocked_quantity"], item["quantity"]);
    // A refunded order is not set to cancelled by hand (the lifecycle table), and nothing goes back twice.
    auto cancel = patchJson("/api/v1/admin/orders/" + paid.id, {{"status", "cancelled"}}, callers().admin);
    ASSERT_EQ(cancel.status, 409) << cancel.body;
    EXPECT_EQ(cancel.json()["code"], "invalid_transition");
    EXPECT_EQ(stockOf(paid.productId), 5);
}

TEST(LedgerApi, ADoubleClickWithOneIdempotencyKeyRefundsOnce) {
    auto paid = paidLocally(5, 1000, 2);
    const Headers key = {{"Idempotency-Key", unique("refund-dialog-")}};
    auto first = refund(paid.id, {{"amount", 700}}, key);
    auto second = refund(paid.id, {{"amount", 700}}, key);
    ASSERT_EQ(first.status, 200) << first.body;
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(second.json()["order"]["refunded_amount"], 700);
    EXPECT_EQ(refundRows(paid.id), 1);
    EXPECT_EQ(ledgerSum(paid.id), 1300);
    auto other = refund(paid.id, {{"amount", 300}}, key);
    EXPECT_EQ(other.status, 409) << other.body;
    EXPECT_EQ(other.json()["code"], "idempotency_key_reused");
    EXPECT_EQ(refundRows(paid.id), 1);
}

TEST(LedgerApi, StripeRefundsCarryTheRefundRowAsIdempotencyKeyAndARetryRefundsOnce) {
    auto paid = paidThroughStripe(4000);
    EXPECT_EQ(ledgerSum(paid.id), 4000);
    auto& stripe = fakeStripe();
    stripe.clearRequests();

    // Stripe is slower than our timeout (2 s): Stripe makes the refund, we answer 502.
    stripe.delayNext(std::chrono::milliseconds(2600));
    auto lost = refund(paid.id, {{"amount", 1500}, {"reason", "Late delivery"}}, {}, fakeStripeServer());
    EXPECT_EQ(lost.status, 502) << lost.body;
    EXPECT_EQ(ledgerSum(paid.id), 4000);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ? AND status = 'requested'", {paid.id}), 1);
    // Another refund while it waits is one of its own, when what is left allows it; more than
    // that is refused while the first is in flight (never answered with the first's refund).
    auto more = refund(paid.id, {{"amount", 2600}}, {}, fakeStripeServer());
    EXPECT_EQ(more.status, 409) << more.body;
    EXPECT_EQ(more.json()["code"], "refund_in_progress");

    // Stripe finished the work after we stopped waiting; the retry gets that refund, not a second one.
    auto madeFor = [&] {
        std::int64_t n = 0;
        for (const auto& f : stripe.refunds())
            if (f.paymentIntent == paid.paymentIntent) ++n;
        return n;
    };
    for (int i = 0; i < 100 && madeFor() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_EQ(madeFor(), 1);
    auto retry = refund(paid.id, {{"amount", 1500}, {"reason", "Late delivery"}}, {}, fakeStripeServer());
    ASSERT_EQ(retry.status, 200) << retry.body;
    auto sent = stripe.requests("POST", "/v1/refunds");
    ASSERT_EQ(sent.size(), 2u);
    const auto refundId = textColumn("SELECT CAST(id AS TEXT) FROM order_refunds WHERE order_id = ?", {paid.id}).at(0);
    for (const auto& r : sent) {
        EXPECT_EQ(r.header("idempotency-key"), "refund-" + refundId);
        EXPECT_EQ(r.field("payment_intent"), paid.paymentIntent);
        EXPECT_EQ(r.field("amount"), "1500");
        EXPECT_EQ(r.field("metadata[refund_id]"), refundId);
        EXPECT_EQ(r.field("metadata[order_id]"), paid.id);
        EXPECT_EQ(r.field("metadata[reason]"), "Late delivery");
    }
    EXPECT_TRUE(sent[1].replayed);
    EXPECT_EQ(madeFor(), 1);
    auto j = retry.json()["order"];
    EXPECT_EQ(j["refunded_amount"], 1500);
    EXPECT_EQ(j["refunds"][0]["status"], "succeeded");
    EXPECT_TRUE(j["refunds"][0]["provider_refund_id"].get<std::string>().starts_with("re_fake_"));
    EXPECT_EQ(ledgerSum(paid.id), 2500);
    EXPECT_EQ(refundRows(paid.id), 1);
}

TEST(LedgerApi, StripesNewsOfOurRefundAndADashboardRefundCountOnce) {
    auto paid = paidThroughStripe(6000);
    auto ours = refund(paid.id, {{"amount", 1000}}, {}, fakeStripeServer());
    ASSERT_EQ(ours.status, 200) << ours.body;
    const std::string reOurs = ours.json()["order"]["refunds"][0]["provider_refund_id"];
    const std::string ourId = ours.json()["order"]["refunds"][0]["id"];
    const std::string charge = "ch_" + paid.paymentIntent;

    auto refundObject = [&](const std::string& id, std::int64_t amount, const nlohmann::json& metadata) {
        return nlohmann::json{{"id", id},
                              {"object", "refund"},
                              {"amount", amount},
                              {"balance_transaction", "txn_" + id},
                              {"charge", charge},
                              {"created", nowUnix()},
                              {"currency", "nzd"},
                              {"destination_details", {{"card", {{"type", "refund"}}}, {"type", "card"}}},
                              {"metadata", metadata},
                              {"payment_intent", paid.paymentIntent},
                              {"reason", "requested_by_customer"},
                              {"receipt_number", nullptr},
                              {"source_transfer_reversal", nullptr},
                              {"status", "succeeded"},
                              {"transfer_reversal", nullptr}};
    };
    auto chargeObject = [&](std::int64_t refunded) {
        return nlohmann::json{{"id", charge},
                              {"object", "charge"},
                              {"amount", 6000},
                              {"amount_captured", 6000},
                              {"amount_refunded", refunded},
                              {"captured", true},
                              {"currency", "nzd"},
                              {"disputed", false},
                              {"paid", true},
                              {"payment_intent", paid.paymentIntent},
                              {"refunded", refunded == 6000},
                              {"status", "succeeded"}};
    };
    // Stripe's news of our own refund changes nothing.
    ASSERT_EQ(deliver(event("charge.refund.updated", refundObject(reOurs, 1000, {{"refund_id", ourId}, {"order_id", paid.id}}))).status, 200);
    ASSERT_EQ(deliver(event("charge.refunded", chargeObject(1000))).status, 200);
    EXPECT_EQ(ledgerSum(paid.id), 5000);
    EXPECT_EQ(refundRows(paid.id), 1);

    // A refund made in Stripe's dashboard: charge.refunded (without its refunds list, as the pinned
    // version sends it), then its own object, then the same event 20 times.
    ASSERT_EQ(deliver(event("charge.refunded", chargeObject(1500))).status, 200);
    EXPECT_EQ(ledgerSum(paid.id), 4500);
    EXPECT_EQ(order(paid.id)["refunded_amount"], 1500);
    const auto dashboard = event("charge.refund.updated", refundObject("re_dash_" + paid.paymentIntent, 500, nlohmann::json::object()));
    for (int i = 0; i < 20; ++i) ASSERT_EQ(deliver(dashboard).status, 200);
    EXPECT_EQ(ledgerSum(paid.id), 4500);
    EXPECT_EQ(refundRows(paid.id), 2);
    auto j = order(paid.id);
    EXPECT_EQ(j["refunded_amount"], 1500);
    EXPECT_EQ(j["refunds"][1]["source"], "provider");
    EXPECT_EQ(j["refunds"][1]["provider_refund_id"], "re_dash_" + paid.paymentIntent);

    // Another dashboard refund whose own object comes first, then the charge: once.
    ASSERT_EQ(deliver(event("charge.refund.updated", refundObject("re_dash2_" + paid.paymentIntent, 4500, nlohmann::json::object()))).status, 200);
    ASSERT_EQ(deliver(event("charge.refunded", chargeObject(6000))).status, 200);
    EXPECT_EQ(ledgerSum(paid.id), 0);
    j = order(paid.id);
    EXPECT_EQ(j["refunded_amount"], 6000);
    EXPECT_EQ(j["status"], "refunded");
    EXPECT_EQ(refundRows(paid.id), 3);
}

TEST(LedgerApi, ADisputeFlagsTheOrderAndALostOneEntersTheLedgerOnce) {
    auto paid = paidThroughStripe(3000);
    const auto disputeId = unique("dp_ledger_");
    auto dispute = [&](const std::string& status) {
        return nlohmann::json{{"id", disputeId},
                              {"object", "dispute"},
                              {"amount", 3000},
                              {"balance_transactions", nlohmann::json::array()},
                              {"charge", "ch_" + paid.paymentIntent},
                              {"created", nowUnix()},
                              {"currency", "nzd"},
                              {"is_charge_refundable", false},
                              {"livemode", false},
                              {"metadata", nlohmann::json::object()},
                              {"payment_intent", paid.paymentIntent},
                              {"reason", "fraudulent"},
                              {"status", status}};
    };
    ASSERT_EQ(deliver(event("charge.dispute.created", dispute("needs_response"))).status, 200);
    auto j = order(paid.id);
    EXPECT_EQ(j["disputed"], true);
    EXPECT_EQ(ledgerSum(paid.id), 3000);
    auto list = getJson("/api/v1/admin/orders?disputed=true&page_size=200", callers().admin);
    ASSERT_EQ(list.status, 200) << list.body;
    bool listed = false;
    const auto items = list.json()["items"]; // a copy: the parsed answer is a temporary
    for (const auto& o : items) {
        EXPECT_EQ(o["disputed"], true);
        if (o["id"] == paid.id) listed = true;
    }
    EXPECT_TRUE(listed);
    EXPECT_EQ(getJson("/api/v1/admin/orders?disputed=maybe", callers().admin).status, 422);

    const auto closed = event("charge.dispute.closed", dispute("lost"));
    ASSERT_EQ(deliver(closed).status, 200);
    ASSERT_EQ(deliver(closed).status, 200);
    ASSERT_EQ(deliver(event("charge.dispute.closed", dispute("lost"))).status, 200); // another event, same dispute
    EXPECT_EQ(ledgerSum(paid.id), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE kind = 'dispute_lost' AND provider_id = ?", {disputeId}), 1);
}

TEST(LedgerApi, RenewalsEnterTheLedgerOnceAndTheRevenueCardIsTheLedgersSum) {
    auto before = getJson("/api/v1/admin/stats", callers().admin).json();
    // A renewal in the pinned version's shape (the subscription under parent.subscription_details).
    const auto invoiceId = unique("in_renewal_");
    nlohmann::json invoice = {{"id", invoiceId},
                              {"object", "invoice"},
                              {"amount_due", 2900},
                              {"amount_paid", 2900},
                              {"amount_remaining", 0},
                              {"billing_reason", "subscription_cycle"},
                              {"currency", "aud"},
                              {"customer", "cus_renewal"},
                              {"parent",
                               {{"type", "subscription_details"},
                                {"subscription_details", {{"subscription", unique("sub_renewal_")}, {"metadata", nlohmann::json::object()}}}}},
                              {"lines", {{"object", "list"}, {"data", nlohmann::json::array({{{"period", {{"start", nowUnix()}, {"end", nowUnix() + 2592000}}}}})}}},
                              {"status", "paid"}};
    const auto paidEvent = event("invoice.paid", invoice);
    ASSERT_EQ(deliver(paidEvent).status, 200);
    ASSERT_EQ(deliver(paidEvent).status, 200);
    ASSERT_EQ(deliver(event("invoice.paid", invoice)).status, 200); // the same invoice in another event
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE kind = 'subscription_payment' AND provider_id = ?", {invoiceId}), 1);

    // A local subscription purchase: its invoice is the money, not also the checkout.
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    auto buyer = newBuyer("ledger-sub");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(checkout.status, 200) << checkout.body;
    ASSERT_EQ(pressButton(checkout.json()["url"], "pay").status, 303);
    const auto subOrder = orderOfCheckout(checkout.json()["checkoutId"]);
    EXPECT_EQ(ledgerRows(subOrder), 0);

    auto paid = paidLocally(5, 1000, 1);
    ASSERT_EQ(refund(paid.id, {{"amount", 400}}).status, 200);

    auto after = getJson("/api/v1/admin/stats", callers().admin).json();
    EXPECT_EQ(after["total_revenue_by_currency"]["AUD"].get<std::int64_t>() - before["total_revenue_by_currency"]["AUD"].get<std::int64_t>(), 2900);
    EXPECT_EQ(after["recent_revenue_by_currency"]["AUD"].get<std::int64_t>() - before["recent_revenue_by_currency"]["AUD"].get<std::int64_t>(), 2900);
    EXPECT_EQ(after["total_revenue"].get<std::int64_t>() - before["total_revenue"].get<std::int64_t>(), 900 + 1000 - 400);
    // The card is the ledger: every currency, all time.
    for (const char* currency : {"NZD", "AUD", "USD"})
        EXPECT_EQ(after["total_revenue_by_currency"][currency], ledgerTotal(currency)) << currency;
    EXPECT_EQ(after["total_revenue"], after["total_revenue_by_currency"]["NZD"]);
    EXPECT_EQ(after["recent_revenue"], after["recent_revenue_by_currency"]["NZD"]);
}

// ---- refunds by line, concurrent refunds, cumulative GST -----------------------------------------

std::string onlyItemId(const std::string& orderId) { return order(orderId)["items"][0]["id"]; }

// The GST the order's notes credit in all: credit notes less the debit notes that reversed some.
std::int64_t creditedGst(const std::string& orderId) {
    return countRows("SELECT CAST(COALESCE(SUM(CASE WHEN kind = 'credit_note' THEN gst_amount ELSE -gst_amount END), 0) AS BIGINT) "
                     "FROM tax_invoices WHERE order_id = ? AND kind IN ('credit_note', 'debit_note')",
                     {orderId});
}

TEST(RefundLinesApi, ARefundOfOneOfTwoLinesRestocksExactlyThatOneAndTheLineCannotBeRefundedTwice) {
    auto paid = paidLocally(40, 4900, 2); // two cables at $49.00: stock 40 -> 38
    ASSERT_EQ(stockOf(paid.productId), 38);
    const auto item = onlyItemId(paid.id);

    auto r = refund(paid.id, {{"lines", {{{"order_item_id", item}, {"quantity", 1}}}}, {"restock", true}, {"reason", "One returned"}},
                    {{"Idempotency-Key", unique("lines-")}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json()["order"];
    EXPECT_EQ(j["refunded_amount"], 4900); // the line's price × quantity, by default
    EXPECT_EQ(j["items"][0]["refunded_quantity"], 1);
    EXPECT_EQ(j["items"][0]["restocked_quantity"], 1);
    EXPECT_EQ(stockOf(paid.productId), 39); // one cable back, not both
    // The credit note lists the line.
    const auto note = textColumn("SELECT document FROM tax_invoices WHERE order_id = ? AND kind = 'credit_note'", {paid.id});
    ASSERT_EQ(note.size(), 1u);
    auto doc = nlohmann::json::parse(note[0]);
    ASSERT_EQ(doc["refunded_lines"].size(), 1u);
    EXPECT_EQ(doc["refunded_lines"][0]["quantity"], 1);
    EXPECT_EQ(doc["lines"][0]["amount"], 4900);

    // The other cable can be refunded once; a third is refused naming the line, and nothing changes.
    ASSERT_EQ(refund(paid.id, {{"lines", {{{"order_item_id", item}, {"quantity", 1}}}}, {"amount", 4000}}).status, 200);
    auto again = refund(paid.id, {{"lines", {{{"order_item_id", item}, {"quantity", 1}}}}});
    ASSERT_EQ(again.status, 422) << again.body;
    EXPECT_TRUE(again.json()["fields"].contains("lines[0]")) << again.body;
    EXPECT_NE(again.json()["message"].get<std::string>().find(item), std::string::npos);
    EXPECT_EQ(refundRows(paid.id), 2);
    EXPECT_EQ(order(paid.id)["refunded_amount"], 8900);
    EXPECT_EQ(stockOf(paid.productId), 39);
}

// Issue 41, found in a browser walk: after refunding and restocking one of two units, the history
// says what was refunded (not a status move), the shipped mail and the packing slip's data send
// what is left, and Cancel order leaves every line refunded in full.
TEST(RefundLinesApi, WhatIsLeftToSendIsWhatShipsAndCancelOrderRefundsEveryLine) {
    auto paid = paidLocally(10, 4900, 2);
    const auto item = onlyItemId(paid.id);
    const std::string name = order(paid.id)["items"][0]["product_name"];
    ASSERT_EQ(refund(paid.id, {{"lines", {{{"order_item_id", item}, {"quantity", 1}}}}, {"restock", true}}).status, 200);
    auto detail = order(paid.id);
    EXPECT_EQ(detail["status"], "paid");
    const auto& last = detail["history"].back();
    EXPECT_TRUE(last["from_status"].is_null()) << last.dump();
    EXPECT_EQ(last["to_status"], "paid");
    EXPECT_EQ(last["note"], "Refunded 1 x " + name + ", $49.00 NZD");
    EXPECT_EQ(detail["items"][0]["refunded_quantity"], 1);

    auto shipped = patchJson("/api/v1/admin/orders/" + paid.id, {{"status", "shipped"}, {"carrier", "NZ Post"}}, callers().admin);
    ASSERT_EQ(shipped.status, 200) << shipped.body;
    const std::string email = detail["customer_email"];
    auto mail = textColumn("SELECT body_text FROM mail_outbox WHERE kind = 'order_shipped' AND to_address = ?", {email});
    ASSERT_EQ(mail.size(), 1u);
    EXPECT_NE(mail[0].find("  1 x " + name), std::string::npos) << mail[0];
    EXPECT_EQ(mail[0].find("  2 x " + name), std::string::npos) << mail[0];

    // Cancel order of a paid order (another): the refund names every line, so each reads refunded in full.
    auto other = paidLocally(10, 4900, 2);
    auto cancelled = sendJson(env().port, "POST", "/api/v1/admin/orders/" + other.id + "/cancel",
                              {{"reason", "Out of stock at the supplier"}, {"restock", true}}, callers().admin);
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    auto after = cancelled.json()["order"];
    EXPECT_EQ(after["status"], "cancelled");
    EXPECT_EQ(after["items"][0]["refunded_quantity"], 2);
    EXPECT_EQ(after["refunded_amount"], 9800);
    EXPECT_EQ(stockOf(other.productId), 10);
}

TEST(RefundLinesApi, BadLinesAreRefusedWithAClearErrorAndChangeNothing) {
    auto paid = paidLocally(10, 2500, 2);
    const auto item = onlyItemId(paid.id);
    const std::vector<nlohmann::json> bad = {
        {{"lines", "all"}},
        {{"lines", nlohmann::json::array()}},
        {{"lines", {{{"order_item_id", "not-a-uuid"}, {"quantity", 1}}}}},
        {{"lines", {{{"order_item_id", storefront::db::newId()}, {"quantity", 1}}}}},
        {{"lines", {{{"order_item_id", item}, {"quantity", 0}}}}},
        {{"lines", {{{"order_item_id", item}, {"quantity", 3}}}}},
        {{"lines", {{{"order_item_id", item}, {"quantity", 1}}, {{"order_item_id", item}, {"quantity", 1}}}}},
        {{"lines", {{{"order_item_id", item}, {"quantity", 1}}}}, {"amount", 2600}}, // above the line's 2500
        {{"lines", {{{"order_item_id", item}}}}},
    };
    for (const auto& body : bad) {
        auto r = refund(paid.id, body);
        EXPECT_EQ(r.status, 422) << body.dump() << " " << r.body;
        EXPECT_EQ(r.json()["code"], "validation_failed") << r.body;
    }
    EXPECT_EQ(refundRows(paid.id), 0);
    EXPECT_EQ(ledgerSum(paid.id), 5000);
    EXPECT_EQ(stockOf(paid.productId), 8);
}

TEST(RefundLinesApi, TwoStaffRefundingAtOnceWithTheirOwnKeysGetTwoRefundsNeverOneShared) {
    // Through Stripe (the fake), the first refund still waiting at the provider when the second
    // arrives: the order is claimed by the first (docs/billing.md, "One claim per record"), so the
    // second is 409 action_in_progress and changes nothing; sent again with its own key after the
    // first has finished, it is a refund of its own.
    auto paid = paidThroughStripe(5000);
    fakeStripe().delayNext(std::chrono::milliseconds(800));
    HttpResult a, b;
    const Headers keyB = {{"Idempotency-Key", unique("staff-b-")}};
    std::thread first([&] { a = refund(paid.id, {{"amount", 1000}}, {{"Idempotency-Key", unique("staff-a-")}}, fakeStripeServer()); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    b = refund(paid.id, {{"amount", 1000}}, keyB, fakeStripeServer());
    first.join();
    ASSERT_EQ(a.status, 200) << a.body;
    ASSERT_EQ(b.status, 409) << b.body;
    EXPECT_EQ(b.json()["code"], "action_in_progress");
    EXPECT_FALSE(b.header("retry-after").empty());
    EXPECT_EQ(refundRows(paid.id), 1);
    b = refund(paid.id, {{"amount", 1000}}, keyB, fakeStripeServer());
    ASSERT_EQ(b.status, 200) << b.body;
    EXPECT_EQ(refundRows(paid.id), 2);
    EXPECT_NE(a.json()["order"]["refunds"].size(), 0u);
    EXPECT_EQ(order(paid.id)["refunded_amount"], 2000);
    EXPECT_EQ(ledgerSum(paid.id), 3000);
    EXPECT_EQ(auditCount("order.refunded", paid.id), 2); // one entry per refund

    // More than is left while one waits: 409 too, never the other caller's refund.
    fakeStripe().delayNext(std::chrono::milliseconds(800));
    HttpResult c, d;
    std::thread third([&] { c = refund(paid.id, {{"amount", 2000}}, {{"Idempotency-Key", unique("staff-c-")}}, fakeStripeServer()); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    d = refund(paid.id, {{"amount", 2000}}, {{"Idempotency-Key", unique("staff-d-")}}, fakeStripeServer());
    third.join();
    ASSERT_EQ(c.status, 200) << c.body;
    ASSERT_EQ(d.status, 409) << d.body;
    EXPECT_EQ(d.json()["code"], "action_in_progress");
    EXPECT_EQ(refundRows(paid.id), 3);
}

TEST(RefundLinesApi, FiftySmallRefundsCreditTheGstOfWhatWasRefundedAndAFullRefundCreditsExactlyTheInvoices) {
    auto paid = paidLocally(10, 4900, 1);
    const auto invoiceGst =
        countRows("SELECT gst_amount FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {paid.id});
    ASSERT_EQ(invoiceGst, 639);
    for (int i = 0; i < 50; ++i) ASSERT_EQ(refund(paid.id, {{"amount", 4}}).status, 200) << i;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'credit_note'", {paid.id}), 50);
    EXPECT_EQ(creditedGst(paid.id), 26); // 3/23 of 200 c; per-note rounding credited 50 c
    ASSERT_EQ(refund(paid.id, {{"amount", 4700}}).status, 200);
    EXPECT_EQ(creditedGst(paid.id), invoiceGst);
}

TEST(RefundLinesApi, ARefundThatFailsAfterItsCreditNoteIsReversedByADebitNote) {
    auto paid = paidThroughStripe(6000);
    auto ours = refund(paid.id, {{"amount", 2300}, {"reason", "Returned"}}, {}, fakeStripeServer());
    ASSERT_EQ(ours.status, 200) << ours.body;
    const std::string reOurs = ours.json()["order"]["refunds"][0]["provider_refund_id"];
    const std::string ourId = ours.json()["order"]["refunds"][0]["id"];
    const auto note = textColumn("SELECT number FROM tax_invoices WHERE order_id = ? AND kind = 'credit_note'", {paid.id});
    ASSERT_EQ(note.size(), 1u);
    // Stripe could not pay it out after all (charge.refund.updated, status failed), twice.
    const auto failed = event("charge.refund.updated", {{"id", reOurs},
                                                         {"object", "refund"},
                                                         {"amount", 2300},
                                                         {"charge", "ch_" + paid.paymentIntent},
                                                         {"created", nowUnix()},
                                                         {"currency", "nzd"},
                                                         {"metadata", {{"refund_id", ourId}, {"order_id", paid.id}}},
                                                         {"payment_intent", paid.paymentIntent},
                                                         {"status", "failed"},
                                                         {"failure_reason", "expired_or_canceled_card"}});
    ASSERT_EQ(deliver(failed).status, 200);
    ASSERT_EQ(deliver(failed).status, 200);
    EXPECT_EQ(ledgerSum(paid.id), 6000);
    EXPECT_EQ(order(paid.id)["refunded_amount"], 0);
    // One debit note, next in the same sequence, reversing the credit note exactly.
    const auto debit = textColumn("SELECT number FROM tax_invoices WHERE order_id = ? AND kind = 'debit_note'", {paid.id});
    ASSERT_EQ(debit.size(), 1u);
    EXPECT_GT(debit[0], note[0]);
    EXPECT_EQ(countRows("SELECT total_amount FROM tax_invoices WHERE number = ?", {debit[0]}), 2300);
    EXPECT_EQ(countRows("SELECT gst_amount FROM tax_invoices WHERE number = ?", {debit[0]}),
              countRows("SELECT gst_amount FROM tax_invoices WHERE number = ?", {note[0]}));
    auto document = getJson("/api/v1/admin/invoices/" + debit[0], callers().admin);
    ASSERT_EQ(document.status, 200) << document.body;
    EXPECT_EQ(document.json()["title"], "Debit Note");
    EXPECT_EQ(document.json()["reverses"], note[0]);
    // The invoice can be credited in full again: the notes net to nothing.
    ASSERT_EQ(refund(paid.id, {{"amount", 6000}}, {}, fakeStripeServer()).status, 200);
    EXPECT_EQ(creditedGst(paid.id), countRows("SELECT gst_amount FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {paid.id}));
}

} // namespace ledger_api_test

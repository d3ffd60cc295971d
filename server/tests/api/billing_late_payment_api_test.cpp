// Issue 16: what staff decide and what the payment provider reports never silently overwrite each
// other. Staff cancel then provider paid (recorded as a late payment, the order stays cancelled);
// provider paid then staff cancel; 20 duplicate deliveries of the late event; staff cancel, the
// expiry job and the provider's expiry racing (stock comes back exactly once).
#include "api/admin_support.h"
#include "api/fake_stripe.h"
#include "billing/provider/stripe_signature.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <thread>

using namespace testing_support;

namespace {

const std::string& kLateWebhookSecret = kFakeStripeWebhookSecret;

FakeStripe& lateStripe() { return fakeStripe(); }

int lateServer() { return fakeStripeServer(); }

HttpResult deliverLate(const nlohmann::json& event) {
    const std::string payload = event.dump();
    return http(lateServer(), "POST", "/webhooks/stripe", payload,
                {{"Content-Type", "application/json"},
                 {"Stripe-Signature", storefront::billing::stripeSignatureHeader(kLateWebhookSecret, payload,
                                                                                 Poco::Timestamp().epochTime())}});
}

struct StripeCheckout {
    std::string checkoutId, sessionId, orderId;
    TestProduct product;
};

// A hardware checkout of `quantity` of a product with `stock` units, through the Stripe server.
StripeCheckout stripeCheckout(int stock, int quantity) {
    StripeCheckout c;
    c.product = createHardware(stock, 2500);
    auto buyer = newBuyer("late");
    auto r = startCheckout(buyer, {{"productSlug", c.product.slug}, {"quantity", quantity}}, lateServer());
    if (r.status != 200) throw std::runtime_error("checkout: " + r.body);
    c.checkoutId = r.json()["checkoutId"];
    c.sessionId = r.json()["sessionId"];
    c.orderId = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {c.checkoutId}).at(0);
    return c;
}

nlohmann::json sessionEvent(const std::string& eventId, const std::string& type, const StripeCheckout& c,
                            const std::string& paymentStatus, std::int64_t amount) {
    nlohmann::json object = {{"id", c.sessionId},       {"object", "checkout.session"}, {"client_reference_id", c.checkoutId},
                             {"mode", "payment"},       {"payment_status", paymentStatus}, {"amount_total", amount},
                             {"currency", "nzd"},       {"payment_intent", "pi_" + c.sessionId},
                             {"metadata", {{"checkout_id", c.checkoutId}}}};
    return {{"id", eventId}, {"type", type}, {"created", Poco::Timestamp().epochTime()}, {"data", {{"object", object}}}};
}

HttpResult staffSet(const std::string& orderId, const std::string& status, int port = 0) {
    return sendJson(port ? port : env().port, "PATCH", "/api/v1/admin/orders/" + orderId, {{"status", status}},
                    callers().admin);
}

std::int64_t totalRevenue() { return getJson("/api/v1/admin/stats", callers().admin).json()["total_revenue"].get<std::int64_t>(); }

} // namespace

TEST(OrderLatePayments, StaffCancelThenProviderPaidIsRecordedNotApplied) {
    auto c = stripeCheckout(5, 2);
    EXPECT_EQ(stockOf(c.product.id), 3);
    const auto revenueBefore = totalRevenue();

    // Staff cancel on the Stripe server: the stock comes back and Stripe is asked to expire the session.
    auto cancelled = staffSet(c.orderId, "cancelled", lateServer());
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    EXPECT_EQ(stockOf(c.product.id), 5);
    EXPECT_EQ(lateStripe().requests("POST", "/v1/checkout/sessions/" + c.sessionId + "/expire").size(), 1u);
    EXPECT_EQ(checkoutStatus(c.checkoutId), "expired");

    // The buyer had paid just before: Stripe reports it, twenty times over, all at once.
    const auto late = sessionEvent(unique("evt_late"), "checkout.session.completed", c, "paid", 5000);
    std::vector<std::thread> deliveries;
    std::vector<int> codes(20);
    for (int i = 0; i < 20; ++i) deliveries.emplace_back([&, i] { codes[i] = deliverLate(late).status; });
    for (auto& t : deliveries) t.join();
    for (int code : codes) EXPECT_EQ(code, 200);
    // And once more under another event id (the async success of the same payment).
    ASSERT_EQ(deliverLate(sessionEvent(unique("evt_late_async"), "checkout.session.async_payment_succeeded", c, "paid", 5000)).status,
              200);

    auto order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "cancelled");
    EXPECT_EQ(order["paid_after_cancellation"], true);
    ASSERT_EQ(order["late_payments"].size(), 1u);
    EXPECT_EQ(order["late_payments"][0]["amount"], 5000);
    EXPECT_EQ(order["late_payments"][0]["currency"], "NZD");
    EXPECT_EQ(order["late_payments"][0]["provider"], "stripe");
    EXPECT_EQ(order["late_payments"][0]["provider_reference"], "pi_" + c.sessionId);
    auto history = order["history"];
    ASSERT_EQ(history.size(), 3u) << order.dump();
    EXPECT_EQ(history[0]["to_status"], "pending");
    EXPECT_EQ(history[1]["from_status"], "pending");
    EXPECT_EQ(history[1]["to_status"], "cancelled");
    EXPECT_EQ(history[1]["source"], "staff");
    EXPECT_EQ(history[1]["actor_email"], callers().adminEmail);
    EXPECT_EQ(history[2]["source"], "provider");
    EXPECT_EQ(history[2]["to_status"], "cancelled");
    EXPECT_NE(history[2]["note"].get<std::string>().find("after staff cancelled"), std::string::npos);
    EXPECT_EQ(stockOf(c.product.id), 5);
    // Listed under its own filter.
    auto listed = getJson("/api/v1/admin/orders?status=paid_after_cancellation&q=" +
                              textColumn("SELECT order_number FROM orders WHERE id = ?", {c.orderId}).at(0),
                          callers().admin)
                      .json();
    EXPECT_EQ(listed["total"], 1);
    // The money arrived: it is in the ledger (staff refund it or reinstate the order), with its
    // tax invoice like any other payment, once however often the news came.
    EXPECT_EQ(totalRevenue(), revenueBefore + 5000);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {c.orderId}), 1);

    // Staff reinstate it: paid, the stock taken again, the flag cleared; the money counts once.
    ASSERT_EQ(staffSet(c.orderId, "paid").status, 200);
    order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "paid");
    EXPECT_EQ(order["paid_after_cancellation"], false);
    EXPECT_EQ(order["late_payments"].size(), 1u);
    EXPECT_EQ(stockOf(c.product.id), 3);
    EXPECT_EQ(totalRevenue(), revenueBefore + 5000);
}

TEST(OrderLatePayments, ProviderPaidThenStaffCancelKeepsTheCancellation) {
    auto c = stripeCheckout(4, 1);
    const auto paid = sessionEvent(unique("evt_paid"), "checkout.session.completed", c, "paid", 2500);
    ASSERT_EQ(deliverLate(paid).status, 200);
    EXPECT_EQ(adminOrder(c.orderId)["status"], "paid");
    EXPECT_EQ(stockOf(c.product.id), 3);

    // A paid order is never set to cancelled: Cancel order refunds it first.
    auto refused = staffSet(c.orderId, "cancelled");
    ASSERT_EQ(refused.status, 409) << refused.body;
    EXPECT_EQ(refused.json()["code"], "invalid_transition");
    EXPECT_EQ(refused.json()["allowed"], (nlohmann::json{"shipped", "completed"}));
    auto cancelled = sendJson(lateServer(), "POST", "/api/v1/admin/orders/" + c.orderId + "/cancel",
                              {{"reason", "Out of stock"}, {"restock", false}}, callers().admin);
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    // The same news again, and a second report of the same payment: no late payment, still cancelled.
    ASSERT_EQ(deliverLate(paid).status, 200);
    ASSERT_EQ(deliverLate(sessionEvent(unique("evt_paid_again"), "checkout.session.async_payment_succeeded", c, "paid", 2500)).status,
              200);
    auto order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "cancelled");
    EXPECT_EQ(order["paid_after_cancellation"], false);
    EXPECT_EQ(order["late_payments"].size(), 0u);
    auto history = order["history"];
    // Cancel order is one history row, naming its refund (issue 41).
    ASSERT_EQ(history.size(), 3u) << order.dump();
    EXPECT_EQ(history[1]["to_status"], "paid");
    EXPECT_EQ(history[1]["source"], "provider");
    EXPECT_EQ(history[2]["from_status"], "paid");
    EXPECT_EQ(history[2]["to_status"], "cancelled");
    EXPECT_EQ(history[2]["source"], "staff");
    EXPECT_EQ(history[2]["note"], "Cancelled: Out of stock. Refunded 1 x " + order["items"][0]["product_name"].get<std::string>() + ", $25.00 NZD");
    // Sold stock is not restocked by a cancellation (only a reservation is given back).
    EXPECT_EQ(stockOf(c.product.id), 3);
    // The provider's expiry of a session that completed changes nothing either.
    ASSERT_EQ(deliverLate(sessionEvent(unique("evt_exp"), "checkout.session.expired", c, "unpaid", 2500)).status, 200);
    EXPECT_EQ(adminOrder(c.orderId)["status"], "cancelled");
    EXPECT_EQ(stockOf(c.product.id), 3);
}

TEST(OrderLatePayments, StaffCancelAndTheProvidersExpiryRacingGiveStockBackOnce) {
    for (int round = 0; round < 8; ++round) {
        auto c = stripeCheckout(6, 3);
        ASSERT_EQ(stockOf(c.product.id), 3);
        const auto expired = sessionEvent(unique("evt_race"), "checkout.session.expired", c, "unpaid", 7500);
        std::thread staff([&] { EXPECT_EQ(staffSet(c.orderId, "cancelled").status, 200); });
        std::thread provider([&] { EXPECT_EQ(deliverLate(expired).status, 200); });
        std::thread again([&] { EXPECT_EQ(deliverLate(expired).status, 200); });
        staff.join();
        provider.join();
        again.join();
        EXPECT_EQ(stockOf(c.product.id), 6) << "round " << round;
        EXPECT_EQ(adminOrder(c.orderId)["status"], "cancelled");
    }
}

TEST(OrderLatePayments, StaffCancelTheExpiryJobAndTheBuyerAbandoningRacingGiveStockBackOnce) {
    // The local provider on the main server: its expiry job runs every second.
    for (int round = 0; round < 5; ++round) {
        auto product = createHardware(5);
        auto buyer = newBuyer("race-local");
        auto r = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", 2}});
        ASSERT_EQ(r.status, 200) << r.body;
        const std::string checkoutId = r.json()["checkoutId"], url = r.json()["url"];
        const auto orderId = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
        ASSERT_EQ(stockOf(product.id), 3);
        std::thread job([&] {
            execSql("UPDATE checkout_sessions SET expires_at = ? WHERE id = ?", {testClock().timestampAfter(-60), checkoutId});
        });
        std::thread staff([&] { EXPECT_EQ(staffSet(orderId, "cancelled").status, 200); });
        std::thread abandon([&] { pressButton(url, "cancel"); });
        job.join();
        staff.join();
        abandon.join();
        // Whoever came first, the job finds nothing left to do.
        EXPECT_TRUE(eventually([&] { return checkoutStatus(checkoutId) == "expired"; }, 5));
        std::this_thread::sleep_for(std::chrono::milliseconds(1200));
        EXPECT_EQ(stockOf(product.id), 5) << "round " << round;
        EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {orderId}).at(0), "cancelled");
    }
}

TEST(OrderLatePayments, ALatePaymentRefundedIssuesACreditNoteAgainstItsInvoice) {
    auto c = stripeCheckout(5, 1);
    ASSERT_EQ(staffSet(c.orderId, "cancelled", lateServer()).status, 200);
    ASSERT_EQ(deliverLate(sessionEvent(unique("evt_late_refund"), "checkout.session.completed", c, "paid", 2500)).status, 200);
    ASSERT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {c.orderId}), 1);
    auto refunded = sendJson(lateServer(), "POST", "/api/v1/admin/orders/" + c.orderId + "/refunds", {{"amount", 2500}},
                             callers().admin);
    ASSERT_EQ(refunded.status, 200) << refunded.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'credit_note'", {c.orderId}), 1);
    EXPECT_EQ(countRows("SELECT CAST(SUM(CASE WHEN kind = 'invoice' THEN gst_amount ELSE -gst_amount END) AS BIGINT) "
                        "FROM tax_invoices WHERE order_id = ?",
                        {c.orderId}),
              0);
}


// Issue 41: a card payment that arrives after staff marked the order paid (a bank transfer) is
// recorded, not lost: in the ledger, as a late payment already_paid, in the history, and flagged
// for staff ("payments to return"); staff return it through the order's refunds against that
// payment, with no credit note (the supply did not change), and the order stays paid.
TEST(OrderLatePayments, ACardPaymentAfterMarkAsPaidIsRecordedFlaggedAndReturnedWithoutACreditNote) {
    auto c = stripeCheckout(5, 2); // 2 x 2500
    auto marked = sendJson(lateServer(), "PATCH", "/api/v1/admin/orders/" + c.orderId,
                           {{"status", "paid"}, {"payment_reference", "BNZ 0042"}, {"shipping_address", staffShippingAddress()}},
                           callers().admin);
    ASSERT_EQ(marked.status, 200) << marked.body;
    const auto notesBefore = countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind <> 'invoice'", {c.orderId});
    const auto gstBefore = getJson("/api/v1/admin/stats", callers().admin).json().dump();

    const auto event = sessionEvent(unique("evt_twice"), "checkout.session.completed", c, "paid", 5000);
    ASSERT_EQ(deliverLate(event).status, 200);
    ASSERT_EQ(deliverLate(event).status, 200); // its news again: nothing more
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {c.orderId}).at(0), "paid");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_late_payments WHERE order_id = ? AND reason = 'already_paid'", {c.orderId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ? AND kind = 'order_payment' AND amount = 5000 AND "
                        "provider_id = ?",
                        {c.orderId, "pi_" + c.sessionId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ? AND kind = 'manual_payment'", {c.orderId}), 1);
    const auto notes = textColumn("SELECT COALESCE(note, '') FROM order_status_history WHERE order_id = ? ORDER BY seq", {c.orderId});
    EXPECT_EQ(std::count_if(notes.begin(), notes.end(),
                            [](const std::string& n) { return n.find("for an order already marked as paid by staff") != std::string::npos; }),
              1);
    // Staff see it: the flag, the filter, the to-do count, the late payment with its reason.
    auto detail = getJson("/api/v1/admin/orders/" + c.orderId, callers().admin).json()["order"];
    EXPECT_EQ(detail["payment_to_return"], true);
    ASSERT_EQ(detail["late_payments"].size(), 1u);
    EXPECT_EQ(detail["late_payments"][0]["reason"], "already_paid");
    EXPECT_EQ(detail["late_payments"][0]["returned_amount"], 0);
    const std::string lateId = detail["late_payments"][0]["id"];
    auto listed = getJson("/api/v1/admin/orders?payment_to_return=true&page_size=200", callers().admin).json()["items"];
    EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](const nlohmann::json& o) { return o["id"] == c.orderId; }));
    EXPECT_GE(getJson("/api/v1/admin/todo", callers().admin).json()["payments_to_return"].get<int>(), 1);

    // Refused, changing nothing: another order's or an unknown payment, with lines or restock, more than it was.
    const auto refunds = "/api/v1/admin/orders/" + c.orderId + "/refunds";
    for (const auto& body : {nlohmann::json{{"late_payment_id", storefront::db::newId()}},
                             nlohmann::json{{"late_payment_id", "nope"}},
                             nlohmann::json{{"late_payment_id", lateId}, {"restock", true}},
                             nlohmann::json{{"late_payment_id", lateId}, {"amount", 5001}}}) {
        auto r = sendJson(lateServer(), "POST", refunds, body, callers().admin);
        EXPECT_EQ(r.status, 422) << body.dump() << ": " << r.body;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ?", {c.orderId}), 0);

    // Returned in full through Stripe, against that payment.
    auto returned = sendJson(lateServer(), "POST", refunds, {{"late_payment_id", lateId}, {"reason", "Paid twice"}}, callers().admin);
    ASSERT_EQ(returned.status, 200) << returned.body;
    auto asked = lateStripe().requests("POST", "/v1/refunds");
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.back().field("payment_intent"), "pi_" + c.sessionId);
    EXPECT_EQ(asked.back().field("amount"), "5000");
    auto after = returned.json()["order"];
    EXPECT_EQ(after["status"], "paid");
    EXPECT_EQ(after["refunded_amount"], 0);
    EXPECT_EQ(after["payment_to_return"], false);
    EXPECT_EQ(after["late_payments"][0]["returned_amount"], 5000);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind <> 'invoice'", {c.orderId}), notesBefore);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ? AND kind = 'refund' AND amount = -5000", {c.orderId}), 1);
    // Nothing is left of it to return.
    EXPECT_EQ(sendJson(lateServer(), "POST", refunds, {{"late_payment_id", lateId}}, callers().admin).status, 422);
    (void)gstBefore;
}

// The same payment returned by several staff at once (a double-click, two tabs): the order's claim
// lets one return through; the others are refused and nothing goes back twice.
TEST(OrderLatePayments, AParallelReturnOfAPaymentMadeTwiceReturnsItOnce) {
    auto c = stripeCheckout(5, 1); // 2500
    ASSERT_EQ(sendJson(lateServer(), "PATCH", "/api/v1/admin/orders/" + c.orderId,
                       {{"status", "paid"}, {"payment_reference", "BNZ 0043"}, {"shipping_address", staffShippingAddress()}},
                       callers().admin)
                  .status,
              200);
    ASSERT_EQ(deliverLate(sessionEvent(unique("evt_twice"), "checkout.session.completed", c, "paid", 2500)).status, 200);
    const std::string lateId =
        getJson("/api/v1/admin/orders/" + c.orderId, callers().admin).json()["order"]["late_payments"][0]["id"];
    std::vector<HttpResult> results(6);
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i)
        threads.emplace_back([&, i] {
            results[i] = sendJson(lateServer(), "POST", "/api/v1/admin/orders/" + c.orderId + "/refunds",
                                  {{"late_payment_id", lateId}}, callers().admin);
        });
    for (auto& t : threads) t.join();
    int ok = 0;
    for (const auto& r : results) {
        if (r.status == 200) ++ok;
        else EXPECT_TRUE(r.status == 409 || r.status == 422) << r.status << " " << r.body;
    }
    EXPECT_EQ(ok, 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE late_payment_id = ?", {lateId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ? AND kind = 'refund'", {c.orderId}), 1);
    EXPECT_EQ(textColumn("SELECT status FROM orders WHERE id = ?", {c.orderId}).at(0), "paid");
}

// Issue 32: a correctly signed payment event whose amount or currency is not the order's does not
// mark it paid: the money enters the ledger, the order is flagged amount_mismatch for staff (the
// list's filter, the detail, the export's column) and no tax invoice is issued (docs/billing.md,
// "Amount mismatches").
#include "api/admin_support.h"
#include "api/fake_stripe.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace mismatch_api_test {

struct StripeCheckout {
    std::string checkoutId, sessionId, orderId;
};

StripeCheckout openStripeCheckout(std::int64_t price) {
    auto product = createHardware(10, price);
    auto buyer = newBuyer("mismatch");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", 1}}, fakeStripeServer());
    EXPECT_EQ(checkout.status, 200) << checkout.body;
    StripeCheckout c{checkout.json()["checkoutId"], checkout.json()["sessionId"], ""};
    c.orderId = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {c.checkoutId}).at(0);
    return c;
}

HttpResult completeWith(const StripeCheckout& c, std::int64_t amount, const std::string& currency) {
    return deliverStripeEvent(fakeStripeServer(), kFakeStripeWebhookSecret,
                              stripeEvent("checkout.session.completed",
                                          {{"id", c.sessionId},
                                           {"object", "checkout.session"},
                                           {"client_reference_id", c.checkoutId},
                                           {"mode", "payment"},
                                           {"status", "complete"},
                                           {"payment_status", "paid"},
                                           {"payment_intent", unique("pi_mismatch_")},
                                           {"amount_total", amount},
                                           {"currency", currency},
                                           {"metadata", {{"checkout_id", c.checkoutId}}}},
                                          unique("evt_mismatch_")));
}

std::int64_t invoicesOf(const std::string& orderId) {
    return countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {orderId});
}

std::int64_t ledgerOf(const std::string& orderId, const std::string& currency) {
    return countRows("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_ledger WHERE order_id = ? AND currency = ?",
                     {orderId, currency});
}

} // namespace mismatch_api_test

using namespace mismatch_api_test;

TEST(AmountMismatch, AnotherAmountIsBookedAndFlaggedNeverPaidOrInvoiced) {
    const auto c = openStripeCheckout(4000);
    ASSERT_EQ(completeWith(c, 100, "nzd").status, 200);
    const auto order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "pending");
    EXPECT_EQ(order["amount_mismatch"], true);
    EXPECT_EQ(ledgerOf(c.orderId, "NZD"), 100) << "the money that arrived is in the books";
    EXPECT_EQ(invoicesOf(c.orderId), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ? AND note LIKE ?",
                        {c.orderId, "%$1.00 NZD received%not marked paid%"}),
              1);
    // The same news again changes nothing more.
    ASSERT_EQ(completeWith(c, 100, "nzd").status, 200);
    EXPECT_EQ(adminOrder(c.orderId)["status"], "pending");
    EXPECT_EQ(invoicesOf(c.orderId), 0);

    // Staff find it with the list's filter, as they find disputes.
    const auto list = getJson("/api/v1/admin/orders?amount_mismatch=true&page_size=200", callers().admin);
    ASSERT_EQ(list.status, 200) << list.body;
    const auto parsed = list.json();
    const auto& items = parsed["items"];
    bool listed = false;
    for (const auto& o : items) {
        EXPECT_EQ(o["amount_mismatch"], true);
        listed = listed || o["id"] == c.orderId;
    }
    EXPECT_TRUE(listed);
    EXPECT_EQ(getJson("/api/v1/admin/orders?amount_mismatch=maybe", callers().admin).status, 422);
    const auto csv = get("/api/v1/admin/orders/export.csv?amount_mismatch=true", callers().admin);
    ASSERT_EQ(csv.status, 200);
    EXPECT_NE(csv.body.find("amount_mismatch"), std::string::npos);
    EXPECT_NE(csv.body.find(order["order_number"].get<std::string>()), std::string::npos);
}

TEST(AmountMismatch, AnotherCurrencyIsBookedInItAndFlagged) {
    const auto c = openStripeCheckout(2500);
    ASSERT_EQ(completeWith(c, 2500, "aud").status, 200);
    const auto order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "pending");
    EXPECT_EQ(order["amount_mismatch"], true);
    EXPECT_EQ(ledgerOf(c.orderId, "AUD"), 2500);
    EXPECT_EQ(ledgerOf(c.orderId, "NZD"), 0);
    EXPECT_EQ(invoicesOf(c.orderId), 0);
}

TEST(AmountMismatch, TheOrdersOwnAmountAndCurrencyPayItAsBefore) {
    const auto c = openStripeCheckout(3100);
    ASSERT_EQ(completeWith(c, 3100, "NZD").status, 200);
    const auto order = adminOrder(c.orderId);
    EXPECT_EQ(order["status"], "paid");
    EXPECT_EQ(order["amount_mismatch"], false);
    EXPECT_EQ(ledgerOf(c.orderId, "NZD"), 3100);
    EXPECT_EQ(invoicesOf(c.orderId), 1);
}

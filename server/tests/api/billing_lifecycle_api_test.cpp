// The order lifecycle (docs/billing.md, "Order lifecycle"): every staff move against the table,
// the refused ones 409 invalid_transition changing nothing; digital orders never ship; Cancel order
// of a paid order refunds, restocks, mails and records why; and the accountant's register and GST
// report agree with each other and with the documents.
#include "api/admin_support.h"
#include "api/billing_support.h"
#include "api/fake_stripe.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace testing_support;

namespace lifecycle_api_test {

HttpResult patchStatus(const std::string& id, const nlohmann::json& body) {
    return patchJson("/api/v1/admin/orders/" + id, body, callers().admin);
}
HttpResult cancelOrder(const std::string& id, const nlohmann::json& body, int port = 0) {
    return sendJson(port ? port : env().port, "POST", "/api/v1/admin/orders/" + id + "/cancel", body, callers().admin);
}
std::string statusOf(const std::string& id) { return textColumn("SELECT status FROM orders WHERE id = ?", {id}).at(0); }
std::int64_t historyRows(const std::string& id) {
    return countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ?", {id});
}
std::int64_t mailsOf(const std::string& kind, const std::string& email) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, email});
}

// A hardware order of `quantity` at `price` paid through the local provider's TEST MODE page.
struct Paid {
    std::string id, productId, email;
};
Paid paidLocally(int stock, std::int64_t price, int quantity) {
    auto product = createHardware(stock, price);
    auto buyer = newBuyer("lifecycle");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", quantity}});
    EXPECT_EQ(checkout.status, 200) << checkout.body;
    EXPECT_EQ(pressButton(checkout.json()["url"], "pay").status, 303);
    const auto id = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?",
                               {std::string(checkout.json()["checkoutId"])})
                        .at(0);
    return {id, product.id, textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0)};
}

TEST(OrderLifecycleApi, EveryStaffMoveIsTheTablesAndEveryOtherIs409ChangingNothing) {
    // The table of docs/billing.md, staff's rows, for an order with a physical item.
    const std::map<std::string, std::vector<std::string>> allowed = {
        {"pending", {"paid", "cancelled"}}, {"paid", {"shipped", "completed"}}, {"shipped", {"completed"}},
        {"completed", {}},                  {"cancelled", {}},                   {"refunded", {}}};
    int applied = 0, refused = 0;
    for (const auto& [from, moves] : allowed) {
        for (const std::string to : {"pending", "paid", "shipped", "completed", "cancelled"}) {
            if (to == from) continue;
            auto order = insertOrder(from, 2000, testClock().timestampAfter(-60), unique("life-") + "@example.nz");
            nlohmann::json body = {{"status", to}};
            if (from == "pending" && to == "paid") {
                body["payment_reference"] = "BNZ 12-3456";
                body["shipping_address"] = staffShippingAddress();
            }
            auto res = patchStatus(order.id, body);
            const bool inTable = std::find(moves.begin(), moves.end(), to) != moves.end();
            if (inTable) {
                ++applied;
                EXPECT_EQ(res.status, 200) << from << " -> " << to << ": " << res.body;
                EXPECT_EQ(statusOf(order.id), to);
                EXPECT_EQ(historyRows(order.id), 1);
                continue;
            }
            ++refused;
            EXPECT_EQ(res.status, 409) << from << " -> " << to << ": " << res.body;
            EXPECT_EQ(res.json()["code"], "invalid_transition");
            EXPECT_EQ(res.json()["from"], from);
            EXPECT_EQ(res.json()["to"], to);
            EXPECT_EQ(res.json()["allowed"], nlohmann::json(moves)) << from;
            EXPECT_EQ(statusOf(order.id), from);
            EXPECT_EQ(historyRows(order.id), 0);
            EXPECT_EQ(auditCount("order.status_changed", order.id), 0);
        }
        // The order JSON offers exactly the table's moves.
        auto listed = insertOrder(from, 2000, testClock().timestampAfter(-60));
        auto detail = getJson("/api/v1/admin/orders/" + listed.id, callers().admin).json()["order"];
        EXPECT_EQ(detail["allowed_statuses"], nlohmann::json(moves)) << from;
        EXPECT_EQ(detail["has_physical_items"], true);
        EXPECT_EQ(detail["refundable_amount"], 0) << from; // arranged: not paid through the provider
        EXPECT_EQ(detail["cancellable"], false) << from;
    }
    EXPECT_EQ(applied, 5);
    EXPECT_EQ(refused, 20);

    // Money that arrived after a cancellation: the order may be reinstated to paid, and only then.
    auto late = insertOrder("cancelled", 2000, testClock().timestampAfter(-60));
    execSql("UPDATE orders SET paid_after_cancellation = TRUE WHERE id = ?", {late.id});
    EXPECT_EQ(getJson("/api/v1/admin/orders/" + late.id, callers().admin).json()["order"]["allowed_statuses"],
              (nlohmann::json{"paid"}));
    auto reinstated = patchStatus(late.id, {{"status", "paid"}});
    ASSERT_EQ(reinstated.status, 200) << reinstated.body;
    EXPECT_EQ(statusOf(late.id), "paid");
}

TEST(OrderLifecycleApi, MarkAsPaidRefusesABadReferenceAndItsOrderIsNotCancelledThroughTheProvider) {
    auto order = insertOrder("pending", 2500, testClock().timestampAfter(-60), unique("manual-") + "@example.nz");
    for (const auto& body : {nlohmann::json{{"status", "paid"}, {"payment_reference", "BNZ\n0042"}},
                             nlohmann::json{{"status", "paid"}, {"payment_reference", std::string(101, 'r')}},
                             nlohmann::json{{"status", "paid"}, {"payment_reference", 42}},
                             nlohmann::json{{"status", "paid"}, {"payment_reference", "   "}},
                             nlohmann::json{{"status", "cancelled"}, {"payment_reference", "BNZ 0042"}}}) {
        auto res = patchStatus(order.id, body);
        EXPECT_EQ(res.status, 422) << body.dump() << ": " << res.body;
        EXPECT_TRUE(res.json()["fields"].contains("payment_reference")) << res.body;
    }
    EXPECT_EQ(statusOf(order.id), "pending");
    EXPECT_EQ(historyRows(order.id), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_ledger WHERE order_id = ?", {order.id}), 0);

    auto paid = patchStatus(order.id, {{"status", "paid"}, {"payment_reference", "BNZ 0042"}, {"shipping_address", staffShippingAddress()}});
    ASSERT_EQ(paid.status, 200) << paid.body;
    EXPECT_EQ(paid.json()["order"]["cancellable"], false); // the provider has no payment to refund
    EXPECT_EQ(paid.json()["order"]["refundable_amount"], 0);
    auto cancel = cancelOrder(order.id, {{"reason", "Changed their mind"}, {"restock", true}});
    EXPECT_EQ(cancel.status, 409) << cancel.body;
    EXPECT_EQ(cancel.json()["code"], "order_not_refundable");
    EXPECT_EQ(statusOf(order.id), "paid");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ?", {order.id}), 0);
}

TEST(OrderLifecycleApi, ADigitalOrderNeverShipsAndNoOneIsMailed) {
    const auto email = unique("digital-") + "@example.nz";
    auto digital = insertOrder("paid", 1500, testClock().timestampAfter(-60), email, std::nullopt, "NZD", false);
    auto cable = insertOrder("paid", 4900, testClock().timestampAfter(-60), unique("cable-") + "@example.nz");
    auto one = patchStatus(digital.id, {{"status", "shipped"}, {"carrier", "CourierPost"}});
    ASSERT_EQ(one.status, 409) << one.body;
    EXPECT_EQ(one.json()["code"], "invalid_transition");
    EXPECT_EQ(one.json()["message"], "Digital order: nothing to ship.");
    EXPECT_EQ(one.json()["allowed"], (nlohmann::json{"completed"}));
    EXPECT_EQ(getJson("/api/v1/admin/orders/" + digital.id, callers().admin).json()["order"]["has_physical_items"], false);

    auto bulk = postJson("/api/v1/admin/orders/bulk-ship", {{"order_ids", {digital.id, cable.id}}, {"carrier", "CourierPost"}},
                         callers().admin);
    ASSERT_EQ(bulk.status, 200) << bulk.body;
    EXPECT_EQ(bulk.json()["shipped"], 1);
    const auto results = bulk.json()["results"];
    EXPECT_EQ(results[0]["ok"], false);
    EXPECT_EQ(results[0]["code"], "order_not_shippable");
    EXPECT_EQ(results[0]["message"], "Digital order: nothing to ship.");
    EXPECT_EQ(results[1]["ok"], true);
    EXPECT_EQ(statusOf(digital.id), "paid");
    EXPECT_EQ(mailsOf("order_shipped", email), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND carrier IS NULL", {digital.id}), 1);
}

TEST(OrderLifecycleApi, CancellingAPaidOrderRefundsRestocksMailsAndRecordsWhy) {
    auto paid = paidLocally(5, 2500, 2);
    ASSERT_EQ(stockOf(paid.productId), 3);

    // Bad input: a clear 422 and nothing changes.
    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"reason", ""}, {"restock", true}},
                             nlohmann::json{{"reason", "Two\nlines"}, {"restock", true}},
                             nlohmann::json{{"reason", std::string(501, 'r')}, {"restock", true}},
                             nlohmann::json{{"reason", "Fine"}, {"restock", "yes"}}, nlohmann::json{{"reason", "Fine"}},
                             nlohmann::json{{"reason", 7}, {"restock", true}}}) {
        auto res = cancelOrder(paid.id, body);
        EXPECT_EQ(res.status, 422) << body.dump() << ": " << res.body;
        EXPECT_EQ(res.json()["code"], "validation_failed");
    }
    EXPECT_EQ(cancelOrder(storefront::db::newId(), {{"reason", "Gone"}, {"restock", true}}).status, 404);
    EXPECT_EQ(statusOf(paid.id), "paid");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ?", {paid.id}), 0);

    auto res = cancelOrder(paid.id, {{"reason", "The customer asked us to"}, {"restock", true}});
    ASSERT_EQ(res.status, 200) << res.body;
    auto o = res.json()["order"];
    EXPECT_EQ(o["status"], "cancelled");
    EXPECT_EQ(o["refunded_amount"], 5000);
    EXPECT_EQ(o["refundable_amount"], 0);
    EXPECT_EQ(o["allowed_statuses"], nlohmann::json::array());
    EXPECT_EQ(o["cancellable"], false);
    // One history row and one audit entry for the whole cancellation, naming its refund.
    const auto historyBefore = 2u; // checkout started, paid
    ASSERT_EQ(o["history"].size(), historyBefore + 1) << o["history"].dump();
    EXPECT_EQ(o["history"].back()["from_status"], "paid");
    EXPECT_EQ(o["history"].back()["to_status"], "cancelled");
    EXPECT_EQ(o["history"].back()["note"],
              "Cancelled: The customer asked us to. Refunded 2 x " + o["items"][0]["product_name"].get<std::string>() +
                  ", $50.00 NZD");
    EXPECT_EQ(auditCount("order.refunded", paid.id), 0);
    EXPECT_EQ(o["history"].back()["actor_email"], callers().adminEmail);
    EXPECT_EQ(stockOf(paid.productId), 5);
    // One refund with its credit note (the whole invoice), in the ledger; the customer gets one
    // mail, the cancellation's, naming the refund; the audit log says who and why.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ? AND amount = 5000", {paid.id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE order_id = ? AND kind = 'credit_note' AND total_amount = 5000",
                        {paid.id}),
              1);
    EXPECT_EQ(countRows("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_ledger WHERE order_id = ?", {paid.id}), 0);
    EXPECT_EQ(mailsOf("order_cancelled", paid.email), 1);
    EXPECT_EQ(mailsOf("refund", paid.email), 0);
    auto mail = textColumn("SELECT body_text FROM mail_outbox WHERE kind = 'order_cancelled' AND to_address = ?", {paid.email}).at(0);
    EXPECT_NE(mail.find("Reason: The customer asked us to"), std::string::npos) << mail;
    EXPECT_NE(mail.find("We have refunded $50.00 NZD"), std::string::npos) << mail;
    EXPECT_EQ(auditCount("order.cancelled", paid.id), 1);
    auto meta = textColumn("SELECT detail FROM audit_log WHERE action = 'order.cancelled' AND target_id = ?", {paid.id});
    ASSERT_EQ(meta.size(), 1u);
    EXPECT_EQ(nlohmann::json::parse(meta[0])["reason"], "The customer asked us to");

    // Once cancelled, never again; a shipped order is refunded, not cancelled.
    auto again = cancelOrder(paid.id, {{"reason", "Again"}, {"restock", true}});
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_EQ(again.json()["code"], "invalid_transition");
    auto shipped = insertOrder("shipped", 2000, testClock().timestampAfter(-60));
    auto refusedShipped = cancelOrder(shipped.id, {{"reason", "Too late"}, {"restock", false}});
    EXPECT_EQ(refusedShipped.status, 409) << refusedShipped.body;
    EXPECT_EQ(refusedShipped.json()["allowed"], (nlohmann::json{"completed"}));
    EXPECT_EQ(statusOf(shipped.id), "shipped");
    EXPECT_EQ(stockOf(paid.productId), 5);
}

TEST(OrderLifecycleApi, AProviderFailureWhileCancellingLeavesThePaidOrderAsItWas) {
    // Through Stripe (the fake), which fails the refund once.
    auto product = createHardware(5, 3000);
    auto buyer = newBuyer("cancel-stripe");
    auto checkout = startCheckout(buyer, {{"productSlug", product.slug}}, fakeStripeServer());
    ASSERT_EQ(checkout.status, 200) << checkout.body;
    const std::string checkoutId = checkout.json()["checkoutId"], sessionId = checkout.json()["sessionId"];
    auto done = deliverStripeEvent(fakeStripeServer(), kFakeStripeWebhookSecret,
                                   stripeEvent("checkout.session.completed",
                                               {{"id", sessionId},
                                                {"object", "checkout.session"},
                                                {"client_reference_id", checkoutId},
                                                {"mode", "payment"},
                                                {"status", "complete"},
                                                {"payment_status", "paid"},
                                                {"payment_intent", unique("pi_cancel_")},
                                                {"amount_total", 3000},
                                                {"currency", "nzd"},
                                                {"metadata", {{"checkout_id", checkoutId}}}},
                                               unique("evt_cancel_")));
    ASSERT_EQ(done.status, 200) << done.body;
    const auto id = textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
    ASSERT_EQ(statusOf(id), "paid");
    fakeStripe().failNext(500, "Something went wrong on Stripe's end.", "api_error", "/v1/refunds");
    auto failed = cancelOrder(id, {{"reason", "Out of stock"}, {"restock", true}}, fakeStripeServer());
    EXPECT_EQ(failed.status, 502) << failed.body;
    EXPECT_EQ(statusOf(id), "paid");
    EXPECT_EQ(auditCount("order.cancelled", id), 0);
    EXPECT_EQ(stockOf(product.id), 4);
    // The same cancel again completes it, refunding once.
    auto retried = cancelOrder(id, {{"reason", "Out of stock"}, {"restock", true}}, fakeStripeServer());
    ASSERT_EQ(retried.status, 200) << retried.body;
    EXPECT_EQ(statusOf(id), "cancelled");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_refunds WHERE order_id = ?", {id}), 1);
    EXPECT_EQ(stockOf(product.id), 5);
}

// ---- the accountant's view ----------------------------------------------------------------------

std::string nzToday() {
    auto r = getJson("/api/v1/admin/invoices?page_size=1", callers().admin);
    return r.json()["items"].empty() ? "" : r.json()["items"][0]["issue_date"].get<std::string>();
}

nlohmann::json gstReport(const std::string& from, const std::string& to) {
    auto r = getJson("/api/v1/admin/reports/gst?from=" + from + "&to=" + to, callers().admin);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
}

nlohmann::json nzdRow(const nlohmann::json& report) {
    for (const auto& row : report["currencies"])
        if (row["currency"] == "NZD") return row;
    return {{"invoiced_amount", 0}, {"credited_amount", 0}, {"net_amount", 0}, {"gst_amount", 0}, {"invoice_count", 0},
            {"credit_note_count", 0}};
}

TEST(InvoiceRegisterApi, TheRegisterAndTheGstReportAgreeWithEachOtherAndTheDocuments) {
    auto paid = paidLocally(10, 4900, 2); // an invoice of $98.00 (GST 12.78)
    const auto today = nzToday();
    ASSERT_FALSE(today.empty());
    const auto before = nzdRow(gstReport(today, today));
    // A credit note of $49.00 (GST 6.39) and another invoice of $23.00 (GST 3.00).
    ASSERT_EQ(postJson("/api/v1/admin/orders/" + paid.id + "/refunds", {{"amount", 4900}, {"reason", "One back"}}, callers().admin)
                  .status,
              200);
    auto paid2 = paidLocally(10, 2300, 1); // $23.00, GST 3.00
    const auto after = nzdRow(gstReport(today, today));
    EXPECT_EQ(after["invoiced_amount"].get<std::int64_t>() - before["invoiced_amount"].get<std::int64_t>(), 2300);
    EXPECT_EQ(after["credited_amount"].get<std::int64_t>() - before["credited_amount"].get<std::int64_t>(), 4900);
    EXPECT_EQ(after["net_amount"].get<std::int64_t>() - before["net_amount"].get<std::int64_t>(), 2300 - 4900);
    EXPECT_EQ(after["gst_amount"].get<std::int64_t>() - before["gst_amount"].get<std::int64_t>(), 300 - 639);
    EXPECT_EQ(after["invoice_count"].get<std::int64_t>() - before["invoice_count"].get<std::int64_t>(), 1);
    EXPECT_EQ(after["credit_note_count"].get<std::int64_t>() - before["credit_note_count"].get<std::int64_t>(), 1);

    // The register of the same day, summed, is the report.
    std::map<std::string, std::int64_t> net, gst;
    int page = 1;
    for (;; ++page) {
        auto r = getJson("/api/v1/admin/invoices?from=" + today + "&to=" + today + "&page_size=200&page=" + std::to_string(page),
                         callers().admin);
        ASSERT_EQ(r.status, 200) << r.body;
        const auto body = r.json(); // kept: the loop reads into it
        for (const auto& e : body["items"]) {
            const int sign = e["kind"] == "credit_note" ? -1 : 1;
            net[e["currency"]] += sign * e["total_amount"].get<std::int64_t>();
            gst[e["currency"]] += sign * e["gst_amount"].get<std::int64_t>();
        }
        if (page * 200 >= r.json()["total"].get<std::int64_t>()) break;
    }
    const auto report = gstReport(today, today); // kept: the loop reads into it
    for (const auto& row : report["currencies"]) {
        EXPECT_EQ(row["net_amount"], net[row["currency"]]) << row.dump();
        EXPECT_EQ(row["gst_amount"], gst[row["currency"]]) << row.dump();
    }

    // Found by order number and by buyer; the credit note names the invoice it adjusts.
    auto orderNumber = getJson("/api/v1/admin/orders/" + paid.id, callers().admin).json()["order"]["order_number"].get<std::string>();
    auto found = getJson("/api/v1/admin/invoices?q=" + orderNumber, callers().admin).json();
    ASSERT_EQ(found["total"], 2);
    EXPECT_EQ(found["items"][0]["kind"], "credit_note");
    EXPECT_EQ(found["items"][0]["adjusts_number"], found["items"][1]["number"]);
    EXPECT_EQ(found["items"][1]["buyer_email"], paid.email);
    EXPECT_EQ(found["items"][1]["order_id"], paid.id);
    auto byBuyer = getJson("/api/v1/admin/invoices?kind=invoice&q=" + paid.email, callers().admin).json();
    ASSERT_EQ(byBuyer["total"], 1);
    EXPECT_EQ(byBuyer["items"][0]["total_amount"], 9800);
    (void)paid2;
}

TEST(InvoiceRegisterApi, ASubscriptionsInvoiceNamesItsSubscription) {
    std::string planId;
    auto app = createSubscriptionProduct(planId, 1500);
    auto buyer = newBuyer("register-sub");
    auto checkout = startCheckout(buyer, {{"productSlug", app.slug}, {"priceId", planId}});
    ASSERT_EQ(checkout.status, 200) << checkout.body;
    ASSERT_EQ(pressButton(checkout.json()["url"], "pay").status, 303);
    const auto email = textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0);
    const auto subscription = textColumn("SELECT CAST(id AS TEXT) FROM subscriptions WHERE user_id = ?", {buyer.userId});
    ASSERT_EQ(subscription.size(), 1u);
    auto found = getJson("/api/v1/admin/invoices?kind=invoice&q=" + email, callers().admin);
    ASSERT_EQ(found.status, 200) << found.body;
    ASSERT_EQ(found.json()["total"], 1) << found.body;
    EXPECT_EQ(found.json()["items"][0]["subscription_id"], subscription[0]);
    EXPECT_EQ(found.json()["items"][0]["total_amount"], 1500);
}

TEST(InvoiceRegisterApi, TheExportHasOneRowPerDocumentAndBadFiltersAre422) {
    auto paid = paidLocally(10, 4900, 1);
    const auto today = nzToday();
    auto csv = getJson("/api/v1/admin/invoices/export.csv?kind=invoice&from=" + today + "&to=" + today, callers().admin);
    ASSERT_EQ(csv.status, 200) << csv.body;
    EXPECT_NE(csv.body.find("number,kind,issue_date,buyer_name,buyer_email,order_number,subscription_id,currency,total,gst,"
                             "zero_rated,adjusts\r\n"),
              std::string::npos)
        << csv.body.substr(0, 200);
    auto number = textColumn("SELECT number FROM tax_invoices WHERE order_id = ?", {paid.id}).at(0);
    EXPECT_NE(csv.body.find(number + ",invoice," + today), std::string::npos);
    EXPECT_NE(csv.body.find(",NZD,49.00,6.39,false,"), std::string::npos);

    for (const auto& query : std::vector<std::string>{"from=2026-13-01", "to=yesterday", "from=2026-02-30", "kind=receipt",
                                                      "from=2026-05-02&to=2026-05-01"}) {
        auto r = getJson("/api/v1/admin/invoices?" + query, callers().admin);
        EXPECT_EQ(r.status, 422) << query << ": " << r.body;
        EXPECT_EQ(getJson("/api/v1/admin/invoices/export.csv?" + query, callers().admin).status, 422) << query;
    }
    for (const auto& query : std::vector<std::string>{"from=2026-13-01&to=2026-06-30", "from=2026-05-02&to=2026-05-01",
                                                      "from=2026-05-01&to=30-06-2026"})
        EXPECT_EQ(getJson("/api/v1/admin/reports/gst?" + query, callers().admin).status, 422) << query;
    auto missing = getJson("/api/v1/admin/reports/gst?from=2026-05-01", callers().admin);
    EXPECT_EQ(missing.status, 422) << missing.body;
    EXPECT_TRUE(missing.json()["fields"].contains("to"));
}

} // namespace lifecycle_api_test

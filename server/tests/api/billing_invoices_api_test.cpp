// New Zealand GST tax invoices (docs/billing.md, "Tax invoices"): one per paid order and per paid
// subscription invoice, issued in the payment's transaction, numbered from one gapless sequence
// (50 payments at once on two servers), idempotent, readable by the owner and staff only; credit
// notes through the repository the refund path calls. SQLite and PostgreSQL.
#include "api/admin_support.h"
#include "billing/books/invoice_repository.h"
#include "billing/books/tax_invoice.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <algorithm>
#include <atomic>
#include <regex>
#include <thread>

using namespace testing_support;

// A namespace of its own: the unity build compiles this file together with other billing tests.
namespace tax_invoice_api {
namespace {

const std::string kSecret = "whsec_invoices_0123456789";
const std::string kHhtraffId = "2d1ed2c8-1727-4279-bfc0-512f613b5b8b";

// Two Stripe servers on the one database (two servers behind a load balancer).
int stripeA() {
    return serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                       {"STRIPE_SECRET_KEY", "sk_test_unused"},
                       {"STRIPE_WEBHOOK_SECRET", kSecret}});
}
int stripeB() {
    return serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
                       {"STRIPE_SECRET_KEY", "sk_test_unused_b"},
                       {"STRIPE_WEBHOOK_SECRET", kSecret}});
}

std::int64_t nowUnix() { return Poco::Timestamp().epochTime(); }

HttpResult deliver(const nlohmann::json& event, int port = 0) { return deliverStripeEvent(port ? port : stripeA(), kSecret, event); }

nlohmann::json event(const std::string& type, nlohmann::json object) { return stripeEvent(type, object, unique("evt_inv")); }

// A completed Checkout Session for a payment link (a guest order), as the pinned API version sends it.
nlohmann::json guestSession(const std::string& id, const std::string& email, std::int64_t amount, const std::string& currency) {
    return {{"id", id},
            {"object", "checkout.session"},
            {"mode", "payment"},
            {"status", "complete"},
            {"payment_status", "paid"},
            {"amount_total", amount},
            {"currency", currency},
            {"customer_details", {{"email", email}, {"name", "Aroha Guest"}}}};
}

// A paid subscription invoice in the pinned API version's shape (parent.subscription_details,
// line items with pricing).
nlohmann::json paidInvoice(const std::string& id, const std::string& subscription, std::int64_t amount,
                           const std::string& currency, const std::string& reason, const std::string& email) {
    const std::int64_t start = nowUnix();
    return {{"id", id},
            {"object", "invoice"},
            {"status", "paid"},
            {"billing_reason", reason},
            {"customer", "cus_invoices"},
            {"customer_email", email},
            {"customer_name", "Mere Subscriber"},
            {"amount_due", amount},
            {"amount_paid", amount},
            {"currency", currency},
            {"parent",
             {{"type", "subscription_details"},
              {"subscription_details", {{"subscription", subscription}, {"metadata", nlohmann::json::object()}}}}},
            {"lines",
             {{"object", "list"},
              {"data", nlohmann::json::array({{{"id", unique("il")},
                                               {"object", "line_item"},
                                               {"amount", amount},
                                               {"currency", currency},
                                               {"description", "1 × hhtraff Monthly (at $15.00 / month)"},
                                               {"quantity", 1},
                                               {"period", {{"start", start}, {"end", start + 30 * 86400}}}}})}}}};
}

HttpResult invoice(const std::string& number, const Headers& headers) {
    return getJson("/api/v1/account/invoices/" + number, headers);
}

std::string invoiceOfOrder(const std::string& orderId) {
    auto numbers = textColumn("SELECT number FROM tax_invoices WHERE order_id = ? AND kind = 'invoice'", {orderId});
    return numbers.size() == 1 ? numbers[0] : "";
}

std::string orderOfCheckout(const std::string& checkoutId) {
    return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
}

// A hardware purchase through the local provider's TEST MODE page: the paid order's id.
std::string buyHardware(const Session& buyer, const TestProduct& product, int quantity) {
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"quantity", quantity}});
    EXPECT_EQ(started.status, 200) << started.body;
    EXPECT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    return orderOfCheckout(started.json()["checkoutId"]);
}

std::int64_t seqOf(const std::string& number) {
    return std::stoll(textColumn("SELECT CAST(seq AS TEXT) FROM tax_invoices WHERE number = ?", {number}).at(0));
}

} // namespace

TEST(TaxInvoices, APaidLocalOrderHasAnInvoiceWithEveryRequiredDetail) {
    auto product = createHardware(10, 2500);
    auto buyer = newBuyer("invoice");
    const std::string orderId = buyHardware(buyer, product, 3);
    const std::string number = invoiceOfOrder(orderId);
    ASSERT_FALSE(number.empty());
    EXPECT_TRUE(std::regex_match(number, std::regex("INV-[0-9]{6,}"))) << number;

    // The customer's order history names it.
    auto orders = getJson("/api/v1/account/orders", buyer.headers());
    ASSERT_EQ(orders.status, 200);
    EXPECT_EQ(orders.json()["items"][0]["invoice_number"], number);

    auto r = invoice(number, buyer.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["title"], "Tax Invoice");
    EXPECT_EQ(j["number"], number);
    EXPECT_EQ(j["kind"], "invoice");
    EXPECT_EQ(j["supplier"]["legal_name"], "Storefront Demo Limited"); // the development defaults
    EXPECT_EQ(j["supplier"]["gst_number"], "49-091-850");
    EXPECT_FALSE(j["supplier"]["address"].get<std::string>().empty());
    EXPECT_EQ(j["buyer"]["email"], textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0));
    // A physical order names where it went: the order's shipping address snapshot.
    ASSERT_TRUE(j["buyer"]["address"].is_object()) << j.dump();
    EXPECT_EQ(j["buyer"]["address"]["line1"], "12 Kauri Street");
    EXPECT_EQ(j["buyer"]["address"]["postal_code"], "6011");
    EXPECT_EQ(j["buyer"]["address"]["country"], "NZ");
    ASSERT_EQ(j["lines"].size(), 1u);
    EXPECT_EQ(j["lines"][0]["quantity"], 3);
    EXPECT_EQ(j["lines"][0]["amount"], 7500);
    EXPECT_EQ(j["currency"], "NZD");
    EXPECT_EQ(j["total_amount"], 7500);
    EXPECT_EQ(j["gst_amount"], 978); // 3/23 of $75.00 = $9.7826
    EXPECT_EQ(j["zero_rated"], false);
    EXPECT_TRUE(std::regex_match(j["issue_date"].get<std::string>(), std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}")));
    EXPECT_EQ(j["issue_date"], storefront::billing::nzDate(j["issued_at"]));
    EXPECT_TRUE(j["adjusts"].is_null());

    // The confirmation mail links to it and states the GST content.
    auto mail = textColumn("SELECT body_text FROM mail_outbox WHERE kind = 'order_confirmation' AND to_address = ?",
                           {j["buyer"]["email"].get<std::string>()});
    ASSERT_EQ(mail.size(), 1u);
    EXPECT_NE(mail[0].find("/account/invoices/" + number), std::string::npos) << mail[0];
    EXPECT_NE(mail[0].find("GST content: $9.78"), std::string::npos) << mail[0];

    // The snapshot does not follow later changes to the order.
    execSql("UPDATE order_items SET product_name = 'Renamed' WHERE order_id = ?", {orderId});
    EXPECT_NE(invoice(number, buyer.headers()).json()["lines"][0]["description"], "Renamed");

    // The list, newest first, paged.
    buyHardware(buyer, product, 1);
    auto list = getJson("/api/v1/account/invoices?page_size=1", buyer.headers());
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_EQ(list.json()["total"], 2);
    ASSERT_EQ(list.json()["items"].size(), 1u);
    EXPECT_GT(seqOf(list.json()["items"][0]["number"]), seqOf(number));
    EXPECT_EQ(list.json()["items"][0]["total_amount"], 2500);
    EXPECT_EQ(list.json()["items"][0]["gst_amount"], 326);
    EXPECT_EQ(getJson("/api/v1/account/invoices?page_size=0", buyer.headers()).status, 422);
}

TEST(TaxInvoices, OnlyTheOwnerAndStaffReadOne) {
    auto product = createHardware(5, 1500);
    auto buyer = newBuyer("owner");
    const std::string number = invoiceOfOrder(buyHardware(buyer, product, 1));
    ASSERT_FALSE(number.empty());
    const auto path = "/api/v1/account/invoices/" + number;

    EXPECT_EQ(invoice(number, buyer.headers()).status, 200);
    auto other = invoice(number, newBuyer("other").headers());
    EXPECT_EQ(other.status, 404); // not 403: whether it exists is not told
    EXPECT_EQ(other.json()["code"], "invoice_not_found");
    EXPECT_EQ(invoice(number, {}).status, 401);
    EXPECT_EQ(invoice(number, callers().admin).status, 200);     // staff past two-factor
    EXPECT_EQ(invoice(number, callers().adminAal1).status, 403); // SignedIn asks an admin with a factor to step up
    EXPECT_EQ(invoice("INV-999999999", buyer.headers()).status, 404);
    EXPECT_EQ(invoice(std::string(41, '9'), buyer.headers()).status, 404);
    EXPECT_EQ(invoice("%27%20OR%201%3D1", buyer.headers()).status, 404);
    EXPECT_EQ(getJson("/api/v1/account/invoices", {}).status, 401);
    // Another user's list does not show it.
    auto list = getJson("/api/v1/account/invoices", newBuyer("empty").headers());
    EXPECT_EQ(list.json()["total"], 0);

    // The staff endpoint, and the admin order detail that links to it.
    expectStaffOnly("GET", "/api/v1/admin/invoices/" + number);
    auto staff = getJson("/api/v1/admin/invoices/" + number, callers().admin);
    ASSERT_EQ(staff.status, 200);
    EXPECT_EQ(staff.json()["number"], number);
    const auto orderId = staff.json()["order_id"].get<std::string>();
    auto detail = getJson("/api/v1/admin/orders/" + orderId, callers().admin);
    ASSERT_EQ(detail.status, 200);
    ASSERT_EQ(detail.json()["order"]["invoices"].size(), 1u);
    EXPECT_EQ(detail.json()["order"]["invoices"][0]["number"], number);
    EXPECT_EQ(getJson("/api/v1/admin/invoices/INV-999999999", callers().admin).status, 404);
}

TEST(TaxInvoices, FiftyPaymentsAtOnceOnTwoServersGetFiftyConsecutiveNumbers) {
    constexpr int kPayments = 50;
    std::vector<std::string> sessions;
    for (int i = 0; i < kPayments; ++i) sessions.push_back(unique("cs_inv_race"));
    stripeA();
    stripeB();
    std::atomic<bool> go{false};
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kPayments; ++i)
        threads.emplace_back([&, i] {
            while (!go) std::this_thread::yield();
            auto e = event("checkout.session.completed", guestSession(sessions[i], newEmail("race"), 1000 + i, "nzd"));
            if (deliver(e, i % 2 ? stripeB() : stripeA()).status == 200) ++ok;
        });
    go = true;
    for (auto& t : threads) t.join();
    ASSERT_EQ(ok.load(), kPayments);

    std::vector<std::int64_t> seqs;
    for (const auto& s : sessions) {
        auto rows = textColumn("SELECT CAST(t.seq AS TEXT) FROM tax_invoices t JOIN orders o ON o.id = t.order_id "
                               "WHERE o.provider_checkout_id = ?",
                               {"stripe:" + s});
        ASSERT_EQ(rows.size(), 1u) << s; // one invoice per payment
        seqs.push_back(std::stoll(rows[0]));
    }
    std::sort(seqs.begin(), seqs.end());
    EXPECT_EQ(std::adjacent_find(seqs.begin(), seqs.end()), seqs.end()); // no duplicates
    EXPECT_EQ(seqs.back() - seqs.front(), kPayments - 1);                // no gaps
    // The counter is the last number issued, so the next one continues the sequence.
    EXPECT_EQ(countRows("SELECT last_number FROM invoice_counters WHERE name = 'tax_invoice'"),
              countRows("SELECT MAX(seq) FROM tax_invoices"));
}

TEST(TaxInvoices, TheSamePaymentTwiceIssuesOneInvoice) {
    const std::string session = unique("cs_inv_twice");
    const std::string email = newEmail("twice");
    auto first = event("checkout.session.completed", guestSession(session, email, 4600, "nzd"));
    ASSERT_EQ(deliver(first).status, 200);
    EXPECT_EQ(deliver(first, stripeB()).json()["outcome"], "duplicate");
    // The same payment's news under another event id.
    EXPECT_EQ(deliver(event("checkout.session.async_payment_succeeded", guestSession(session, email, 4600, "nzd"))).status, 200);
    auto rows = textColumn("SELECT t.document FROM tax_invoices t JOIN orders o ON o.id = t.order_id WHERE o.provider_checkout_id = ?",
                           {"stripe:" + session});
    ASSERT_EQ(rows.size(), 1u);
    auto doc = nlohmann::json::parse(rows[0]);
    EXPECT_EQ(doc["gst_amount"], 600); // $46.00 -> $6.00
    EXPECT_EQ(doc["buyer"]["email"], email);
    EXPECT_TRUE(doc["buyer"]["name"].is_null()); // a guest has no account name
}

TEST(TaxInvoices, ASubscriptionsInvoicesAndRenewalsEachGetOne) {
    // The first payment through the local provider: invoice.paid and the checkout's completion are
    // one payment, so one invoice, linked to the order.
    auto buyer = newBuyer("sub-invoice");
    auto started = startCheckout(buyer, {{"productSlug", "hhtraff"}, {"priceId", kMonthlyPlanId}});
    ASSERT_EQ(started.status, 200) << started.body;
    ASSERT_EQ(pressButton(started.json()["url"], "pay").status, 303);
    const auto orderId = orderOfCheckout(started.json()["checkoutId"]);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE user_id = ?", {buyer.userId}), 1);
    const auto first = invoiceOfOrder(orderId);
    ASSERT_FALSE(first.empty());
    auto j = invoice(first, buyer.headers()).json();
    EXPECT_EQ(j["total_amount"], 1500);
    EXPECT_EQ(j["gst_amount"], 196);
    EXPECT_EQ(j["order_id"], orderId);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = 'renewal_receipt' AND to_address = ?",
                        {j["buyer"]["email"].get<std::string>()}),
              0); // the first payment's mail is the order confirmation

    // A Stripe renewal (invoice.paid, billing_reason subscription_cycle) in the pinned API shape.
    const std::string sub = unique("sub_inv");
    const std::string email = j["buyer"]["email"];
    ASSERT_EQ(deliver(event("customer.subscription.created",
                            {{"id", sub},
                             {"object", "subscription"},
                             {"customer", "cus_invoices"},
                             {"status", "active"},
                             {"metadata", {{"user_id", buyer.userId}, {"product_id", kHhtraffId}}},
                             {"items", {{"data", nlohmann::json::array({{{"current_period_end", nowUnix() + 86400}}})}}}}))
                  .status,
              200);
    const std::string providerInvoice = unique("in_inv");
    auto renewal = event("invoice.paid", paidInvoice(providerInvoice, sub, 1500, "nzd", "subscription_cycle", email));
    ASSERT_EQ(deliver(renewal).status, 200);
    ASSERT_EQ(deliver(event("invoice.paid", paidInvoice(providerInvoice, sub, 1500, "nzd", "subscription_cycle", email))).status,
              200); // the same invoice again under another event id
    auto numbers = textColumn("SELECT number FROM tax_invoices WHERE source_key = ?", {"invoice:stripe:" + providerInvoice});
    ASSERT_EQ(numbers.size(), 1u);
    auto r = invoice(numbers[0], buyer.headers());
    ASSERT_EQ(r.status, 200) << r.body; // the subscription's owner reads it
    EXPECT_EQ(r.json()["lines"][0]["description"], "1 × hhtraff Monthly (at $15.00 / month)");
    EXPECT_EQ(r.json()["gst_amount"], 196);
    EXPECT_TRUE(r.json()["order_id"].is_null());
    auto receipts = textColumn("SELECT body_text FROM mail_outbox WHERE kind = 'renewal_receipt' AND to_address = ?", {email});
    ASSERT_EQ(receipts.size(), 1u);
    EXPECT_NE(receipts[0].find("/account/invoices/" + numbers[0]), std::string::npos) << receipts[0];
    EXPECT_NE(receipts[0].find("GST content: $1.96"), std::string::npos) << receipts[0];

    // An AUD renewal is a zero-rated export (STOREFRONT_ZERO_RATED_CURRENCIES defaults to AUD,USD).
    const std::string audInvoice = unique("in_inv_aud");
    ASSERT_EQ(deliver(event("invoice.paid", paidInvoice(audInvoice, sub, 1650, "aud", "subscription_cycle", email))).status, 200);
    auto aud = textColumn("SELECT document FROM tax_invoices WHERE source_key = ?", {"invoice:stripe:" + audInvoice});
    ASSERT_EQ(aud.size(), 1u);
    auto audDoc = nlohmann::json::parse(aud[0]);
    EXPECT_EQ(audDoc["currency"], "AUD");
    EXPECT_EQ(audDoc["gst_amount"], 0);
    EXPECT_EQ(audDoc["zero_rated"], true);
    EXPECT_NE(audDoc["gst_note"].get<std::string>().find("Zero-rated"), std::string::npos);

    // A trial's invoice of zero is no supply: no tax invoice.
    const std::string trial = unique("in_inv_trial");
    ASSERT_EQ(deliver(event("invoice.paid", paidInvoice(trial, sub, 0, "nzd", "subscription_create", email))).status, 200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM tax_invoices WHERE source_key = ?", {"invoice:stripe:" + trial}), 0);
}

TEST(TaxInvoices, ACreditNoteNamesTheInvoiceItAdjustsFromTheSameSequence) {
    auto product = createHardware(5, 4000);
    auto buyer = newBuyer("credit");
    const std::string orderId = buyHardware(buyer, product, 2); // $80.00
    const std::string number = invoiceOfOrder(orderId);
    ASSERT_FALSE(number.empty());

    storefront::billing::InvoiceSettings settings;
    settings.legalName = "Storefront Demo Limited";
    settings.address = "1 Queen Street, Auckland";
    settings.gstNumber = "49-091-850";
    storefront::billing::InvoiceRepository invoices(settings);
    auto credit = [&](const std::string& refundId, std::int64_t amount) {
        std::string out;
        env().db->write([&](storefront::db::Tx& tx) { out = invoices.issueCreditNote(tx, orderId, refundId, amount, "Damaged in transit"); });
        return out;
    };
    const std::string refund = storefront::db::newId();
    const std::string note = credit(refund, 2300);
    EXPECT_GT(seqOf(note), seqOf(number));
    EXPECT_EQ(credit(refund, 2300), note); // the same refund again: the same note
    auto r = invoice(note, buyer.headers());
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["kind"], "credit_note");
    EXPECT_EQ(j["title"], "Credit Note");
    EXPECT_EQ(j["adjusts"], number);
    EXPECT_EQ(j["total_amount"], 2300);
    EXPECT_EQ(j["gst_amount"], 300);
    EXPECT_EQ(j["reason"], "Damaged in transit");
    EXPECT_EQ(j["buyer"], invoice(number, buyer.headers()).json()["buyer"]);
    EXPECT_EQ(invoice(note, newBuyer("stranger").headers()).status, 404);

    // Over what is left (8000 - 2300), zero, negative, or an order without an invoice: refused,
    // and nothing issued (the counter unchanged).
    const auto counter = countRows("SELECT last_number FROM invoice_counters");
    using storefront::billing::CreditNoteRefused;
    EXPECT_THROW(credit(storefront::db::newId(), 5701), CreditNoteRefused);
    EXPECT_THROW(credit(storefront::db::newId(), 0), CreditNoteRefused);
    EXPECT_THROW(credit(storefront::db::newId(), -5), CreditNoteRefused);
    auto unpaid = insertOrder("pending", 1000, "2026-01-01T00:00:00.000Z");
    EXPECT_THROW(env().db->write([&](storefront::db::Tx& tx) { invoices.issueCreditNote(tx, unpaid.id, "r", 100, ""); }),
                 CreditNoteRefused);
    EXPECT_EQ(countRows("SELECT last_number FROM invoice_counters"), counter);
    // The rest of it is fine.
    const auto rest = credit(storefront::db::newId(), 5700);
    EXPECT_EQ(seqOf(rest), counter + 1);
    auto detail = getJson("/api/v1/admin/orders/" + orderId, callers().admin);
    EXPECT_EQ(detail.json()["order"]["invoices"].size(), 3u);
}

} // namespace tax_invoice_api

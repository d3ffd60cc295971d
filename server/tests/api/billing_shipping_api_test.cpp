// Shipping and fulfilment (docs/billing.md, "Shipping and fulfilment"): a physical checkout
// collects an address and phone (the local TEST MODE page checks each field; Stripe is asked to
// collect them and its completed session is read in the pinned API version's shape), a digital one
// never asks; the address is a snapshot on the order; staff mark an order shipped with a carrier
// and tracking number, which the order JSON shows and the customer is mailed.
#include "api/admin_support.h"
#include "api/fake_stripe.h"
#include "common/text.h"

#include <gtest/gtest.h>

#include <Poco/Timestamp.h>

#include <fstream>
#include <sstream>

using namespace testing_support;

namespace {

std::string shipOrderOfCheckout(const std::string& checkoutId) {
    return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {checkoutId}).at(0);
}

nlohmann::json shipStaffOrder(const std::string& orderId) {
    auto r = getJson("/api/v1/admin/orders/" + orderId, callers().admin);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["order"];
}

// The buyer's order with this number from their paged history.
nlohmann::json shipCustomerOrder(const Session& buyer, const std::string& orderNumber) {
    auto r = getJson("/api/v1/account/orders", buyer.headers());
    EXPECT_EQ(r.status, 200) << r.body;
    const auto page = r.json(); // kept: a range over a temporary's member would dangle
    for (const auto& o : page["items"])
        if (o["order_number"] == orderNumber) return o;
    ADD_FAILURE() << "order " << orderNumber << " not in " << r.body;
    return nullptr;
}

// A form with one field replaced (or removed when value is null).
std::string shipForm(const std::string& name, const std::optional<std::string>& value) {
    std::map<std::string, std::string> fields = {{"name", "Aroha Ngati"},    {"line1", "12 Kauri Street"},
                                                 {"line2", ""},               {"city", "Wellington"},
                                                 {"postal_code", "6011"},     {"country", "NZ"},
                                                 {"phone", "021 555 0101"}};
    if (value) fields[name] = *value;
    else fields.erase(name);
    std::string out;
    for (const auto& [k, v] : fields) out += (out.empty() ? "" : "&") + k + "=" + storefront::common::encodeUriComponent(v);
    return out;
}

HttpResult shipDeliver(const std::string& payload) {
    return deliverStripePayload(fakeStripeServer(), kFakeStripeWebhookSecret, payload);
}

nlohmann::json shipFixture(const std::string& name) {
    std::ifstream in(std::string(STOREFRONT_SOURCE_DIR) + "/tests/api/fixtures/stripe/" + name);
    std::stringstream text;
    text << in.rdbuf();
    auto json = nlohmann::json::parse(text.str(), nullptr, false);
    if (!json.is_object()) throw std::runtime_error("fixture " + name + " is not JSON");
    return json;
}

} // namespace

TEST(BillingShipping, APhysicalCheckoutChecksEveryAddressFieldAndPaysOnlyWithAValidOne) {
    auto hardware = createHardware(5, 4900);
    auto buyer = newBuyer("ship-local");
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}});
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string url = r.json()["url"], checkoutId = r.json()["checkoutId"];
    const auto orderId = shipOrderOfCheckout(checkoutId);

    auto page = get(pathOf(url));
    ASSERT_EQ(page.status, 200);
    for (const char* field : {"name", "line1", "line2", "city", "postal_code", "country", "phone"})
        EXPECT_NE(page.body.find("name=\"" + std::string(field) + "\""), std::string::npos) << field;
    EXPECT_NE(page.body.find("<option value=\"NZ\" selected>New Zealand</option>"), std::string::npos);
    EXPECT_NE(page.body.find("<option value=\"AU\">Australia</option>"), std::string::npos);

    struct Bad {
        std::string field;
        std::optional<std::string> value;
        std::string message;
    };
    const std::vector<Bad> bad = {
        {"name", std::nullopt, "This field is required."},
        {"name", "   ", "This field is required."},
        {"name", std::string(101, 'n'), "Must be at most 100 characters."},
        {"line1", "", "This field is required."},
        {"line1", "12 Kauri\nStreet", "Must be a single line of text."},
        {"line2", std::string(101, 'l'), "Must be at most 100 characters."},
        {"city", std::nullopt, "This field is required."},
        {"postal_code", "", "This field is required."},
        {"postal_code", "60111", "A New Zealand postcode is four digits."},
        {"postal_code", "6O11", "A New Zealand postcode is four digits."},
        {"country", "US", "We ship to New Zealand, Australia only."},
        {"country", "", "This field is required."},
        {"phone", std::nullopt, "This field is required."},
        {"phone", "call me", "Enter a phone number of 6 to 15 digits"},
        {"phone", "12345", "Enter a phone number of 6 to 15 digits"},
    };
    for (const auto& b : bad) {
        auto res = payWith(url, shipForm(b.field, b.value));
        EXPECT_EQ(res.status, 422) << b.field;
        EXPECT_NE(res.header("content-type").find("text/html"), std::string::npos);
        // The message beside its field, the field marked invalid, and the other values kept.
        EXPECT_NE(res.body.find("id=\"" + b.field + "-error\">" + storefront::common::escapeHtml(b.message)), std::string::npos)
            << b.field << ": " << res.body;
        EXPECT_NE(res.body.find("aria-describedby=\"" + b.field + "-error\""), std::string::npos) << b.field;
        if (b.field != "line1") {
            EXPECT_NE(res.body.find("value=\"12 Kauri Street\""), std::string::npos) << b.field;
        }
        if (b.field == "postal_code" && b.value && !b.value->empty()) {
            EXPECT_NE(res.body.find("value=\"" + *b.value + "\""), std::string::npos);
        }
    }
    // An Australian postcode is four digits too.
    auto au = payWith(url, shipForm("country", "AU"));
    EXPECT_EQ(au.status, 303) << "NZ postcode 6011 is four digits, valid for AU as well";
    // Nothing changed on the way: the order was unpaid until that valid form.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ? AND to_status = 'paid'", {orderId}), 1);

    auto o = shipStaffOrder(orderId);
    EXPECT_EQ(o["status"], "paid");
    EXPECT_EQ(o["shipping_address"],
              nlohmann::json({{"name", "Aroha Ngati"}, {"line1", "12 Kauri Street"}, {"line2", nullptr}, {"city", "Wellington"},
                              {"state", nullptr}, {"postal_code", "6011"}, {"country", "AU"}, {"phone", "021 555 0101"}}));
    EXPECT_EQ(o["carrier"], nullptr);
    EXPECT_EQ(o["tracking_number"], nullptr);
    EXPECT_EQ(stockOf(hardware.id), 3);
    // The confirmation mail says where it goes.
    auto mail = textColumn("SELECT body_text FROM mail_outbox WHERE to_address = ? AND kind = 'order_confirmation'",
                           {textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0)});
    ASSERT_EQ(mail.size(), 1u);
    EXPECT_NE(mail[0].find("Shipping to:\n  Aroha Ngati\n  12 Kauri Street\n  Wellington 6011\n  Australia\n  Phone: 021 555 0101"),
              std::string::npos)
        << mail[0];
}

TEST(BillingShipping, ABadAddressLeavesTheOrderUnpaidAndTheCheckoutOpen) {
    auto hardware = createHardware(3);
    auto buyer = newBuyer("ship-bad");
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}});
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string url = r.json()["url"], checkoutId = r.json()["checkoutId"];
    const auto orderId = shipOrderOfCheckout(checkoutId);
    const auto events = countRows("SELECT COUNT(*) FROM payment_events", {});
    for (const auto& form : {std::string(), shipForm("postal_code", "123"), shipForm("country", "FR"), std::string("%zz=1")}) {
        auto res = payWith(url, form);
        EXPECT_EQ(res.status / 100, 4) << form;
    }
    EXPECT_EQ(orderStatusOfCheckout(checkoutId), "pending");
    EXPECT_EQ(checkoutStatus(checkoutId), "open");
    EXPECT_EQ(stockOf(hardware.id), 2); // still reserved, not taken twice or given back
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM payment_events", {}), events);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND shipping_line1 IS NULL", {orderId}), 1);
    // The page still offers to pay.
    EXPECT_NE(get(pathOf(url)).body.find("name=\"line1\""), std::string::npos);
}

TEST(BillingShipping, ADigitalCheckoutNeverAsksForAnAddress) {
    std::string planId;
    auto product = createSubscriptionProduct(planId, 900);
    auto buyer = newBuyer("ship-digital");
    auto r = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string url = r.json()["url"], checkoutId = r.json()["checkoutId"];
    auto page = get(pathOf(url));
    EXPECT_EQ(page.body.find("name=\"line1\""), std::string::npos);
    EXPECT_EQ(page.body.find("Shipping address"), std::string::npos);
    // Paid with an empty form (and a posted address is ignored: nothing is stored).
    auto paid = payWith(url, kTestAddress);
    ASSERT_EQ(paid.status, 303) << paid.body;
    const auto orderId = shipOrderOfCheckout(checkoutId);
    auto o = shipStaffOrder(orderId);
    EXPECT_EQ(o["status"], "paid");
    EXPECT_EQ(o["shipping_address"], nullptr);
    const std::string number = o["order_number"];
    EXPECT_EQ(shipCustomerOrder(buyer, number)["shipping_address"], nullptr);
}

TEST(BillingShipping, StripeIsAskedToCollectTheAddressForPhysicalProductsOnly) {
    const int port = fakeStripeServer();
    auto buyer = newBuyer("ship-stripe");
    auto hardware = createHardware(4, 4900);
    fakeStripe().clearRequests();
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}, {"quantity", 2}}, port);
    ASSERT_EQ(r.status, 200) << r.body;
    auto created = fakeStripe().requests("POST", "/v1/checkout/sessions");
    ASSERT_EQ(created.size(), 1u);
    EXPECT_EQ(created[0].field("shipping_address_collection[allowed_countries][0]"), "NZ");
    EXPECT_EQ(created[0].field("shipping_address_collection[allowed_countries][1]"), "AU");
    EXPECT_FALSE(created[0].has("shipping_address_collection[allowed_countries][2]"));
    EXPECT_EQ(created[0].field("phone_number_collection[enabled]"), "true");

    std::string planId;
    auto app = createSubscriptionProduct(planId, 900);
    ASSERT_EQ(startCheckout(buyer, {{"productSlug", app.slug}, {"priceId", planId}}, port).status, 200);
    auto digital = fakeStripe().requests("POST", "/v1/checkout/sessions").back();
    for (const auto& [key, value] : digital.fields) {
        EXPECT_EQ(key.find("shipping_address_collection"), std::string::npos) << key;
        EXPECT_EQ(key.find("phone_number_collection"), std::string::npos) << key;
    }

    // The completed session, in the pinned API version's shape (a fixture), fills the order's snapshot.
    const std::string checkoutId = r.json()["checkoutId"], sessionId = r.json()["sessionId"];
    auto event = shipFixture("checkout.session.completed.shipping.json");
    EXPECT_EQ(event["api_version"], "2025-09-30.clover"); // billing/provider/stripe_provider.h pins this version
    event["id"] = unique("evt_ship");
    auto& session = event["data"]["object"];
    session["id"] = sessionId;
    session["client_reference_id"] = checkoutId;
    session["metadata"]["checkout_id"] = checkoutId;
    session["customer"] = created[0].field("customer");
    ASSERT_EQ(shipDeliver(event.dump()).status, 200);
    // The same event again (Stripe retries) changes nothing.
    ASSERT_EQ(shipDeliver(event.dump()).status, 200);
    const auto orderId = shipOrderOfCheckout(checkoutId);
    auto o = shipStaffOrder(orderId);
    EXPECT_EQ(o["status"], "paid");
    EXPECT_EQ(o["shipping_address"],
              nlohmann::json({{"name", "Hēmi Pōtae"}, {"line1", "1 Cathedral Square"}, {"line2", "Level 3"},
                              {"city", "Christchurch"}, {"state", "Canterbury"}, {"postal_code", "8011"},
                              {"country", "NZ"}, {"phone", "+6435550199"}}));
    EXPECT_EQ(shipCustomerOrder(buyer, o["order_number"])["shipping_address"], o["shipping_address"]);

    // A later event with another address never rewrites the snapshot.
    auto later = event;
    later["id"] = unique("evt_ship_later");
    later["type"] = "checkout.session.async_payment_succeeded";
    later["data"]["object"]["collected_information"]["shipping_details"]["address"]["line1"] = "9 Elsewhere Road";
    ASSERT_EQ(shipDeliver(later.dump()).status, 200);
    EXPECT_EQ(shipStaffOrder(orderId)["shipping_address"]["line1"], "1 Cathedral Square");
}

TEST(BillingShipping, ShippedWithTrackingIsOnTheOrderAndMailedToTheCustomer) {
    auto hardware = createHardware(3, 2500);
    auto buyer = newBuyer("ship-track");
    auto r = startCheckout(buyer, {{"productSlug", hardware.slug}});
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(pressButton(r.json()["url"], "pay").status, 303);
    const auto orderId = shipOrderOfCheckout(r.json()["checkoutId"]);
    const auto email = textColumn("SELECT email FROM users WHERE id = ?", {buyer.userId}).at(0);

    auto shipped = patchJson("/api/v1/admin/orders/" + orderId,
                             {{"status", "shipped"}, {"carrier", "  NZ Post  "}, {"tracking_number", "LY123456789NZ"}},
                             callers().admin);
    ASSERT_EQ(shipped.status, 200) << shipped.body;
    auto o = shipped.json()["order"];
    EXPECT_EQ(o["status"], "shipped");
    EXPECT_EQ(o["carrier"], "NZ Post");
    EXPECT_EQ(o["tracking_number"], "LY123456789NZ");
    EXPECT_TRUE(o["shipped_at"].is_string());
    EXPECT_EQ(o["shipping_address"]["postal_code"], "6011");
    EXPECT_EQ(auditCount("order.status_changed", orderId), 1);
    auto audited = textColumn("SELECT after_json FROM audit_log WHERE action = 'order.status_changed' AND target_id = ?", {orderId});
    EXPECT_EQ(nlohmann::json::parse(audited.at(0))["tracking_number"], "LY123456789NZ");

    auto mine = shipCustomerOrder(buyer, o["order_number"]);
    EXPECT_EQ(mine["status"], "shipped");
    EXPECT_EQ(mine["carrier"], "NZ Post");
    EXPECT_EQ(mine["tracking_number"], "LY123456789NZ");
    EXPECT_EQ(mine["shipping_address"]["line1"], "12 Kauri Street");

    auto mails = textColumn("SELECT subject || '|' || body_text FROM mail_outbox WHERE to_address = ? AND kind = 'order_shipped'",
                            {email});
    ASSERT_EQ(mails.size(), 1u);
    const std::string number = o["order_number"];
    EXPECT_EQ(mails[0].rfind("Your order " + number + " has shipped|", 0), 0u) << mails[0];
    EXPECT_NE(mails[0].find("Carrier: NZ Post\nTracking number: LY123456789NZ\n"), std::string::npos) << mails[0];
    EXPECT_NE(mails[0].find("  1 x Test cable "), std::string::npos) << mails[0];

    // Shipped again with the same tracking: nothing; with a corrected number: stored, audited, mailed.
    ASSERT_EQ(patchJson("/api/v1/admin/orders/" + orderId,
                        {{"status", "shipped"}, {"carrier", "NZ Post"}, {"tracking_number", "LY123456789NZ"}}, callers().admin)
                  .status,
              200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ? AND kind = 'order_shipped'", {email}), 1);
    auto corrected = patchJson("/api/v1/admin/orders/" + orderId,
                               {{"status", "shipped"}, {"carrier", "NZ Post"}, {"tracking_number", "LY987654321NZ"}},
                               callers().admin);
    ASSERT_EQ(corrected.status, 200) << corrected.body;
    EXPECT_EQ(corrected.json()["order"]["tracking_number"], "LY987654321NZ");
    EXPECT_EQ(corrected.json()["order"]["shipped_at"], o["shipped_at"]);
    EXPECT_EQ(auditCount("order.tracking_changed", orderId), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ? AND kind = 'order_shipped'", {email}), 2);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM order_status_history WHERE order_id = ? AND to_status = 'shipped'", {orderId}), 1);

    // Shipped without tracking is fine too: the mail says there is none.
    auto plain = insertOrder("paid", 1500, testClock().timestampAfter(-5), unique("ship-plain-") + "@example.nz");
    auto res = patchJson("/api/v1/admin/orders/" + plain.id, {{"status", "shipped"}}, callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["order"]["carrier"], nullptr);
    EXPECT_EQ(res.json()["order"]["shipping_address"], nullptr);
    auto plainMail = textColumn("SELECT body_text FROM mail_outbox m JOIN orders o ON o.customer_email = m.to_address "
                                "WHERE o.id = ? AND m.kind = 'order_shipped'",
                                {plain.id});
    ASSERT_EQ(plainMail.size(), 1u);
    EXPECT_NE(plainMail[0].find("There is no tracking number for this delivery."), std::string::npos);
}

TEST(BillingShipping, BadCarrierOrTrackingInputIs422AndChangesNothing) {
    auto order = insertOrder("paid", 1500, testClock().timestampAfter(-5), unique("ship-badtrack-") + "@example.nz");
    const std::vector<std::pair<nlohmann::json, std::string>> bad = {
        {{{"status", "shipped"}, {"carrier", std::string(61, 'c')}}, "carrier"},
        {{{"status", "shipped"}, {"tracking_number", std::string(61, 't')}}, "tracking_number"},
        {{{"status", "shipped"}, {"carrier", 7}}, "carrier"},
        {{{"status", "shipped"}, {"tracking_number", {{"n", 1}}}}, "tracking_number"},
        {{{"status", "shipped"}, {"tracking_number", "LY1\n23"}}, "tracking_number"},
        {{{"status", "completed"}, {"carrier", "NZ Post"}}, "carrier"},
        {{{"status", "paid"}, {"tracking_number", "LY123"}}, "tracking_number"},
        {{{"carrier", "NZ Post"}}, "status"},
    };
    for (const auto& [body, field] : bad) {
        auto res = patchJson("/api/v1/admin/orders/" + order.id, body, callers().admin);
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed");
        EXPECT_TRUE(res.json()["fields"].contains(field)) << body.dump() << " " << res.body;
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'paid' AND carrier IS NULL "
                        "AND tracking_number IS NULL AND shipped_at IS NULL",
                        {order.id}),
              1);
    EXPECT_EQ(auditCount("order.status_changed", order.id), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox m JOIN orders o ON o.customer_email = m.to_address "
                        "WHERE o.id = ? AND m.kind = 'order_shipped'",
                        {order.id}),
              0);
}

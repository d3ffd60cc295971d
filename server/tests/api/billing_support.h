#pragma once
// Helpers for the billing API tests: test products with stock, signed-in buyers, checkouts through
// the local provider, and reading billing rows.
#include "api/auth_support.h"

#include <string>

namespace testing_support {

class FakeStripe;
// The fake Stripe the API tests share, and the server on the shared database that talks to it with
// kFakeStripeWebhookSecret. One fake only: two would hand out the same ids (cus_fake_1, cs_fake_1)
// into the one database.
inline const std::string kFakeStripeWebhookSecret = "whsec_fake_stripe_flow";
FakeStripe& fakeStripe();
int fakeStripeServer();

inline const std::string kMonthlyPlanId = "40394828-0a74-471c-981f-345d4cc95e86"; // hhtraff Monthly, 1500 NZD
inline const std::string kYearlyPlanId = "c369542f-be8b-4eaf-aaed-1318e07635d2";  // hhtraff Yearly
inline const std::string kWirewriteProPlanId = "0e16d193-902d-4547-a8ab-ef1d1c040ab8"; // wirewrite Pro Monthly, 600

struct TestProduct {
    std::string id, slug;
};
// An active physical product tracking `stock` units at `priceCents` each.
TestProduct createHardware(int stock, std::int64_t priceCents = 2500);
// An active subscription product with one monthly plan; returns the product and sets planId.
TestProduct createSubscriptionProduct(std::string& planId, std::int64_t priceCents = 900);

// A confirmed user, signed in.
Session newBuyer(const std::string& prefix = "buyer");

HttpResult startCheckout(const Session& buyer, const nlohmann::json& body, int port = 0);
// POSTs one of the local provider's page buttons ("pay", "decline", "cancel") for a checkout URL.
// "pay" sends kTestAddress's fields (a physical product's page asks for them; others ignore them).
HttpResult pressButton(const std::string& checkoutUrl, const std::string& button);
// A valid New Zealand shipping address as the local page posts it.
inline const std::string kTestAddress =
    "name=Aroha+Ng%C4%81ti&line1=12+Kauri+Street&line2=&city=Wellington&postal_code=6011&country=NZ&phone=021+555+0101";
// Pays a local checkout with this url-encoded form (the shipping fields).
HttpResult payWith(const std::string& checkoutUrl, const std::string& form);

// A Stripe webhook event in the pinned API version's shape (billing/provider/stripe_provider.h) around
// `object`; a new evt_ id unless one is given.
nlohmann::json stripeEvent(const std::string& type, const nlohmann::json& object, std::string id = "");
// POSTs a payload (or an event) to /webhooks/stripe of the server on `port`, signed with `secret`
// at the current time, as Stripe delivers it.
HttpResult deliverStripePayload(int port, const std::string& secret, const std::string& payload);
HttpResult deliverStripeEvent(int port, const std::string& secret, const nlohmann::json& event);

std::int64_t stockOf(const std::string& productId);
std::string orderStatusOfCheckout(const std::string& checkoutId);
std::string checkoutStatus(const std::string& checkoutId);

} // namespace testing_support

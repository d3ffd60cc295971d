// Shipping rules without a database: the allowed-countries setting, the local page's address
// checks, reading Stripe's completed session (pinned shape and the older one), and the JSON.
#include "app/config.h"
#include "billing/orders/shipping.h"
#include "billing/provider/stripe_json.h"
#include "billing/provider/stripe_provider.h"

#include <Poco/AutoPtr.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace {

using namespace storefront::billing;

std::map<std::string, std::string> goodForm() {
    return {{"name", " Aroha Ngāti "}, {"line1", "12 Kauri Street"}, {"line2", ""},         {"city", "Wellington"},
            {"postal_code", "6011"},   {"country", "nz"},              {"phone", "021 555 0101"}};
}

storefront::app::Config configWith(const std::map<std::string, std::string>& env) {
    Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;
    return storefront::app::loadConfig(*props, [&](const std::string& k) -> std::optional<std::string> {
        auto it = env.find(k);
        if (it == env.end()) return std::nullopt;
        return it->second;
    }, "/srv/web");
}

} // namespace

TEST(BillingShippingRules, CountryListIsUpperCasedWithoutRepeatsAndRefusesNonCodes) {
    EXPECT_EQ(parseCountryList("NZ,AU"), (std::vector<std::string>{"NZ", "AU"}));
    EXPECT_EQ(parseCountryList(" nz , au,NZ,, "), (std::vector<std::string>{"NZ", "AU"}));
    EXPECT_THROW(parseCountryList(""), std::invalid_argument);
    EXPECT_THROW(parseCountryList(" , "), std::invalid_argument);
    EXPECT_THROW(parseCountryList("NZ,NZL"), std::invalid_argument);
    EXPECT_THROW(parseCountryList("N1"), std::invalid_argument);
}

TEST(BillingShippingRules, TheSettingDefaultsToNewZealandAndAustralia) {
    EXPECT_EQ(configWith({}).payments.shippingCountries, (std::vector<std::string>{"NZ", "AU"}));
    EXPECT_EQ(configWith({{"STOREFRONT_SHIPPING_COUNTRIES", "nz"}}).payments.shippingCountries,
              (std::vector<std::string>{"NZ"}));
    try {
        configWith({{"STOREFRONT_SHIPPING_COUNTRIES", "NZ,Aotearoa"}});
        FAIL() << "accepted a country that is not a code";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("STOREFRONT_SHIPPING_COUNTRIES"), std::string::npos) << e.what();
    }
}

TEST(BillingShippingRules, AValidFormIsTrimmedAndNormalised) {
    ShippingAddress a;
    auto errors = validateAddress(goodForm(), {"NZ", "AU"}, a);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(a.name, "Aroha Ngāti");
    EXPECT_EQ(a.country, "NZ");
    EXPECT_FALSE(a.line2);
    EXPECT_FALSE(a.state);
    EXPECT_EQ(a.phone, "021 555 0101");
}

TEST(BillingShippingRules, EachBadFieldHasItsMessageAndNothingElseDoes) {
    struct Case {
        std::string field, value, message;
    };
    const std::vector<Case> cases = {
        {"name", "", "This field is required."},
        {"name", std::string(100, 'x') + "ā", "Must be at most 100 characters."},
        {"line1", "a\tb", "Must be a single line of text."},
        {"city", "  ", "This field is required."},
        {"postal_code", "601", "A New Zealand postcode is four digits."},
        {"country", "US", "We ship to New Zealand, Australia only."},
        {"phone", "(021) 55", "Enter a phone number of 6 to 15 digits (spaces, +, - and brackets allowed)."},
        {"phone", "1234567890123456", "Enter a phone number of 6 to 15 digits (spaces, +, - and brackets allowed)."},
    };
    for (const auto& c : cases) {
        auto form = goodForm();
        form[c.field] = c.value;
        ShippingAddress a;
        a.name = "untouched";
        auto errors = validateAddress(form, {"NZ", "AU"}, a);
        EXPECT_EQ(errors, (std::map<std::string, std::string>{{c.field, c.message}})) << c.field << "=" << c.value;
        EXPECT_EQ(a.name, "untouched"); // not written when invalid
    }
    // 100 code points of non-ASCII text is within the limit (characters, not bytes).
    auto form = goodForm();
    form["name"] = std::string();
    for (int i = 0; i < 100; ++i) form["name"] += "ā";
    ShippingAddress a;
    EXPECT_TRUE(validateAddress(form, {"NZ"}, a).empty());
    // An Australian postcode is four digits; another country's is letters, digits, spaces, hyphens.
    form = goodForm();
    form["country"] = "AU";
    form["postal_code"] = "20000";
    EXPECT_EQ(validateAddress(form, {"NZ", "AU"}, a).at("postal_code"), "An Australian postcode is four digits.");
    form["country"] = "GB";
    form["postal_code"] = "SW1A 1AA";
    EXPECT_TRUE(validateAddress(form, {"GB"}, a).empty());
    EXPECT_EQ(a.postalCode, "SW1A 1AA");
}

TEST(BillingShippingRules, ReadsThePinnedVersionsCollectedInformationAndTheOlderShape) {
    EXPECT_EQ(kStripeApiVersion, "2025-09-30.clover"); // collected_information.shipping_details since 2025-03-31.basil
    nlohmann::json pinned = {
        {"collected_information",
         {{"shipping_details",
           {{"name", "Hēmi Pōtae"},
            {"address",
             {{"line1", "1 Cathedral Square"}, {"line2", nullptr}, {"city", "Christchurch"}, {"state", ""},
              {"postal_code", "8011"}, {"country", "nz"}}}}}}},
        {"customer_details", {{"email", "h@example.nz"}, {"phone", "+6435550199"}}}};
    auto a = stripe_json::shippingFromSession(pinned);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->name, "Hēmi Pōtae");
    EXPECT_EQ(a->country, "NZ");
    EXPECT_FALSE(a->line2);
    EXPECT_FALSE(a->state);
    EXPECT_EQ(a->phone, "+6435550199");

    nlohmann::json older = {{"shipping_details",
                             {{"name", "Ana"},
                              {"address", {{"line1", "2 Beach Rd"}, {"city", "Sydney"}, {"state", "NSW"},
                                           {"postal_code", "2000"}, {"country", "AU"}}}}},
                            {"customer_details", {{"phone", nullptr}}}};
    a = stripe_json::shippingFromSession(older);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->state, "NSW");
    EXPECT_FALSE(a->phone);

    EXPECT_FALSE(stripe_json::shippingFromSession({{"customer_details", {{"email", "x@example.nz"}}}}));
    EXPECT_FALSE(stripe_json::shippingFromSession({{"collected_information", {{"shipping_details", nullptr}}}}));
    EXPECT_FALSE(stripe_json::shippingFromSession(
        {{"collected_information", {{"shipping_details", {{"address", {{"line1", "x"}, {"country", "N"}}}}}}}}));

    // A provider's over-long value is cut to the stored limit, on a character boundary.
    std::string longName;
    for (int i = 0; i < 150; ++i) longName += "ō";
    pinned["collected_information"]["shipping_details"]["name"] = longName;
    a = stripe_json::shippingFromSession(pinned);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->name.size(), 200u); // 100 two-byte characters
}

TEST(BillingShippingRules, TheLocalProvidersSessionReadsBackTheSameAddress) {
    ShippingAddress in;
    ASSERT_TRUE(validateAddress(goodForm(), {"NZ"}, in).empty());
    nlohmann::json session = {{"customer_details", {{"email", "a@example.nz"}}}};
    stripe_json::addToSession(session, in);
    EXPECT_EQ(session["customer_details"]["email"], "a@example.nz");
    auto out = stripe_json::shippingFromSession(session);
    ASSERT_TRUE(out);
    EXPECT_EQ(toJson(out), toJson(std::optional<ShippingAddress>(in)));
    EXPECT_EQ(toJson(std::nullopt), nullptr);
}

TEST(BillingShippingRules, CarrierAndTrackingAreTrimmedAndLimited) {
    std::optional<std::string> carrier = "  NZ Post ", tracking = "   ";
    EXPECT_TRUE(checkTracking(carrier, tracking).empty());
    EXPECT_EQ(carrier, "NZ Post");
    EXPECT_FALSE(tracking);
    carrier = std::string(61, 'c');
    tracking = "LY1\r2";
    auto errors = checkTracking(carrier, tracking);
    EXPECT_EQ(errors.at("carrier"), "Must be at most 60 characters.");
    EXPECT_EQ(errors.at("tracking_number"), "Must be a single line of text.");
}

TEST(BillingShippingRules, TheStripeFormAsksForAddressAndPhoneOnlyWhenThereAreCountries) {
    CheckoutRequest r;
    r.checkoutId = "c1";
    r.mode = "payment";
    r.line = {"Cable", 4900, "NZD", 1, "", 1};
    auto digital = checkoutSessionForm(r).fields();
    for (const auto& [key, value] : digital) EXPECT_EQ(key.find("shipping"), std::string::npos) << key;
    r.shippingCountries = {"NZ", "AU"};
    auto physical = checkoutSessionForm(r).encoded();
    EXPECT_NE(physical.find("shipping_address_collection[allowed_countries][0]=NZ&"
                            "shipping_address_collection[allowed_countries][1]=AU&"
                            "phone_number_collection[enabled]=true"),
              std::string::npos)
        << physical;
}

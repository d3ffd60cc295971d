// Stripe's form encoding: bracketed nesting, percent-encoding of keys and values, and decoding.
#include "billing/provider/stripe_form.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

using namespace storefront::billing;

TEST(StripeForm, FlatFieldsJoinWithAmpersands) {
    FormBody form;
    form.add({"email"}, "ana@example.com").add({"mode"}, "payment");
    EXPECT_EQ(form.encoded(), "email=ana%40example.com&mode=payment");
    EXPECT_FALSE(form.empty());
    EXPECT_EQ(FormBody().encoded(), "");
    EXPECT_TRUE(FormBody().empty());
}

TEST(StripeForm, NestedKeysUseLiteralBrackets) {
    FormBody form;
    form.add({"line_items", "0", "price_data", "unit_amount"}, "600");
    form.add({"metadata", "checkout_id"}, "c-1");
    EXPECT_EQ(form.encoded(), "line_items[0][price_data][unit_amount]=600&metadata[checkout_id]=c-1");
    const std::vector<FormField> expected = {{"line_items[0][price_data][unit_amount]", "600"},
                                             {"metadata[checkout_id]", "c-1"}};
    EXPECT_EQ(form.fields(), expected);
}

TEST(StripeForm, AddEachNestsEveryEntryInMapOrder) {
    FormBody form;
    form.addEach({"subscription_data", "metadata"}, {{"user_id", "u1"}, {"checkout_id", "c1"}});
    EXPECT_EQ(form.encoded(), "subscription_data[metadata][checkout_id]=c1&subscription_data[metadata][user_id]=u1");
    FormBody none;
    none.addEach({"metadata"}, {});
    EXPECT_TRUE(none.empty());
}

TEST(StripeForm, ValuesArePercentEncoded) {
    FormBody form;
    form.add({"a"}, "two words").add({"b"}, "x&y=z").add({"c"}, "50% + tax").add({"d"}, "a/b?c#d");
    EXPECT_EQ(form.encoded(), "a=two%20words&b=x%26y%3Dz&c=50%25%20%2B%20tax&d=a%2Fb%3Fc%23d");
}

TEST(StripeForm, UnreservedCharactersStayAsTheyAre) {
    FormBody form;
    form.add({"k"}, "AZaz09-._~");
    EXPECT_EQ(form.encoded(), "k=AZaz09-._~");
}

TEST(StripeForm, UnicodeIsEncodedAsUtf8Bytes) {
    FormBody form;
    form.add({"product_data", "name"}, "Kōwhai — café"); // ō U+014D, em dash U+2014, é U+00E9
    EXPECT_EQ(form.encoded(), "product_data[name]=K%C5%8Dwhai%20%E2%80%94%20caf%C3%A9");
}

TEST(StripeForm, KeySegmentsAreEncodedSoTheyCannotNest) {
    FormBody form;
    form.add({"metadata", "a][b"}, "v").add({"metadata", "x&y=z"}, "w");
    EXPECT_EQ(form.encoded(), "metadata[a%5D%5Bb]=v&metadata[x%26y%3Dz]=w");
    // The unencoded view keeps the key as given.
    EXPECT_EQ(form.fields()[0].first, "metadata[a][b]");
}

TEST(StripeForm, EmptyValuesAreSent) {
    FormBody form;
    form.add({"metadata", "note"}, "");
    EXPECT_EQ(form.encoded(), "metadata[note]=");
}

TEST(StripeForm, AFieldNeedsAName) {
    FormBody form;
    EXPECT_THROW(form.add(std::vector<std::string>{}, "v"), std::invalid_argument);
    EXPECT_THROW(form.add({""}, "v"), std::invalid_argument);
}

TEST(StripeForm, BracketKey) {
    EXPECT_EQ(bracketKey({"a"}), "a");
    EXPECT_EQ(bracketKey({"a", "b", "c"}), "a[b][c]");
    EXPECT_EQ(bracketKey({}), "");
}

TEST(StripeFormDecode, RoundTripsWhatWasEncoded) {
    FormBody form;
    form.add({"line_items", "0", "price_data", "product_data", "name"}, "Kōwhai & co = 100%");
    form.add({"metadata", "a][b"}, "two words");
    form.add({"empty"}, "");
    EXPECT_EQ(decodeForm(form.encoded()), form.fields());
}

TEST(StripeFormDecode, PlusIsASpaceAndEscapesAreBytes) {
    const std::vector<FormField> expected = {{"a b", "c d"}, {"e[f]", "&="}, {"flag", ""}};
    EXPECT_EQ(decodeForm("a+b=c%20d&e%5Bf%5D=%26%3d&flag"), expected);
    EXPECT_EQ(decodeForm(""), std::vector<FormField>{});
    EXPECT_EQ(decodeForm("&&a=1&"), (std::vector<FormField>{{"a", "1"}}));
}

TEST(StripeFormDecode, BrokenEscapesThrow) {
    EXPECT_THROW(decodeForm("a=%"), std::invalid_argument);
    EXPECT_THROW(decodeForm("a=%2"), std::invalid_argument);
    EXPECT_THROW(decodeForm("a=%zz"), std::invalid_argument);
    EXPECT_THROW(decodeForm("%g1=x"), std::invalid_argument);
}

} // namespace

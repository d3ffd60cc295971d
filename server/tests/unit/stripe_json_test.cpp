// The one set of Stripe JSON readers (billing/provider/stripe_json.h): the provider's refund,
// charge and dispute objects as the books take them, and payloads that read as nothing.
#include "billing/provider/stripe_json.h"

#include <gtest/gtest.h>

using namespace storefront::billing;

TEST(StripeJson, ARefundObjectReadsAsTheBooksTakeIt) {
    const auto refund = stripe_json::readRefund(nlohmann::json{
        {"id", "re_1"}, {"object", "refund"}, {"amount", 2300}, {"currency", "nzd"}, {"status", "requires_action"},
        {"payment_intent", {{"id", "pi_1"}, {"object", "payment_intent"}}},
        {"metadata", {{"refund_id", "5f0c6a36-2e2a-4a8c-9d43-2f3e0b1d9c11"}, {"order_id", "not-a-uuid"}, {"reason", "Returned"}}}});
    ASSERT_TRUE(refund);
    EXPECT_EQ(refund->id, "re_1");
    EXPECT_EQ(refund->amount, 2300);
    EXPECT_EQ(refund->currency, "NZD");
    EXPECT_EQ(refund->status, "pending"); // requires_action waits, as pending does
    EXPECT_EQ(refund->ourRefundId, "5f0c6a36-2e2a-4a8c-9d43-2f3e0b1d9c11");
    EXPECT_EQ(refund->reason, "Returned");
    EXPECT_EQ(refund->payment.paymentId, "pi_1"); // an expanded field
    EXPECT_FALSE(refund->payment.orderId);       // not a UUID: not ours
}

TEST(StripeJson, MalformedObjectsReadAsNothing) {
    for (const auto& bad : {nlohmann::json::object(), nlohmann::json{{"id", "re_1"}, {"amount", 0}, {"currency", "nzd"}},
                            nlohmann::json{{"id", "re_1"}, {"amount", "100"}, {"currency", "nzd"}},
                            nlohmann::json{{"id", "re_1"}, {"amount", 100}, {"currency", "xyz"}},
                            nlohmann::json{{"id", ""}, {"amount", 100}, {"currency", "nzd"}}})
        EXPECT_FALSE(stripe_json::readRefund(bad)) << bad.dump();
    EXPECT_FALSE(stripe_json::readDispute(nlohmann::json{{"id", "dp_1"}, {"amount", -1}, {"currency", "nzd"}}));
    const auto charge = stripe_json::readCharge(nlohmann::json{{"payment_intent", "pi_2"},
                                                               {"amount_refunded", 500},
                                                               {"refunds", {{"data", {{{"id", "re_2"}}, 7, {{"id", "re_3"},
                                                                                                         {"amount", 500},
                                                                                                         {"currency", "aud"}}}}}}});
    EXPECT_EQ(charge.payment.paymentId, "pi_2");
    EXPECT_EQ(charge.amountRefunded, 500);
    ASSERT_EQ(charge.refunds.size(), 1u); // the malformed entries are skipped
    EXPECT_EQ(charge.refunds[0].id, "re_3");
    EXPECT_EQ(charge.refunds[0].status, "pending");
    const auto dispute = stripe_json::readDispute(nlohmann::json{{"id", "dp_1"}, {"amount", 4900}, {"currency", "nzd"}});
    ASSERT_TRUE(dispute);
    EXPECT_EQ(dispute->status, "needs_response");
}

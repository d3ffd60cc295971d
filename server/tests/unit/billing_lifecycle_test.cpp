// The order lifecycle table (billing/orders/lifecycle.h): what each path may do, and the 409 body
// of a refused move.
#include "billing/orders/lifecycle.h"
#include "http/api_error.h"

#include <gtest/gtest.h>

using namespace storefront::billing;

TEST(OrderLifecycle, StaffMovesAreTheTablesOnly) {
    const OrderFacts physical{true, false}, digital{false, false};
    EXPECT_EQ(allowedMoves(OrderPath::Staff, "pending", physical), (std::vector<std::string>{"paid", "cancelled"}));
    EXPECT_EQ(allowedMoves(OrderPath::Staff, "paid", physical), (std::vector<std::string>{"shipped", "completed"}));
    EXPECT_EQ(allowedMoves(OrderPath::Staff, "paid", digital), (std::vector<std::string>{"completed"}));
    EXPECT_EQ(allowedMoves(OrderPath::Staff, "shipped", physical), (std::vector<std::string>{"completed"}));
    for (const char* end : {"completed", "refunded", "cancelled"}) EXPECT_TRUE(allowedMoves(OrderPath::Staff, end, physical).empty());
    EXPECT_EQ(allowedMoves(OrderPath::Staff, "cancelled", {true, true}), (std::vector<std::string>{"paid"}));
    // Never back to pending, never from paid straight to cancelled by a status change.
    for (const char* from : {"paid", "shipped", "completed", "cancelled", "refunded"}) {
        EXPECT_FALSE(permits(OrderPath::Staff, from, "pending", {true, true})) << from;
        if (std::string(from) != "cancelled") {
            EXPECT_FALSE(permits(OrderPath::Staff, from, "cancelled", {true, true})) << from;
        }
    }
    // The same status again is no move, and always allowed.
    EXPECT_TRUE(permits(OrderPath::Staff, "completed", "completed", physical));
}

TEST(OrderLifecycle, OtherPathsHaveTheirOwnRows) {
    const OrderFacts none{};
    EXPECT_TRUE(permits(OrderPath::Customer, "pending", "cancelled", none));
    EXPECT_FALSE(permits(OrderPath::Customer, "paid", "cancelled", none));
    EXPECT_TRUE(permits(OrderPath::Payment, "cancelled", "paid", none));
    EXPECT_FALSE(permits(OrderPath::Payment, "refunded", "paid", none));
    EXPECT_TRUE(permits(OrderPath::Refund, "shipped", "refunded", none));
    EXPECT_TRUE(permits(OrderPath::Refund, "refunded", "completed", none));
    EXPECT_FALSE(permits(OrderPath::Refund, "pending", "refunded", none));
    EXPECT_TRUE(permits(OrderPath::StaffCancel, "paid", "cancelled", none));
    EXPECT_FALSE(permits(OrderPath::StaffCancel, "shipped", "cancelled", none));
    // The expiry ends an unpaid order, and nothing else.
    EXPECT_EQ(allowedMoves(OrderPath::Expiry, "pending", none), (std::vector<std::string>{"cancelled"}));
    for (const char* from : {"paid", "shipped", "completed", "refunded"})
        EXPECT_FALSE(permits(OrderPath::Expiry, from, "cancelled", {true, true})) << from;
}

TEST(OrderLifecycle, ARefusedMoveIs409WithFromToAndWhatIsAllowed) {
    try {
        requireMove(OrderPath::Staff, "paid", "cancelled", {true, false});
        FAIL() << "paid -> cancelled was allowed";
    } catch (const storefront::http::ApiError& e) {
        EXPECT_EQ(e.status(), 409);
        EXPECT_EQ(e.code(), "invalid_transition");
        EXPECT_EQ(e.extra["from"], "paid");
        EXPECT_EQ(e.extra["to"], "cancelled");
        EXPECT_EQ(e.extra["allowed"], (nlohmann::json{"shipped", "completed"}));
    }
    try {
        requireMove(OrderPath::Staff, "paid", "shipped", {false, false});
        FAIL() << "a digital order shipped";
    } catch (const storefront::http::ApiError& e) {
        EXPECT_STREQ(e.what(), "Digital order: nothing to ship.");
    }
}

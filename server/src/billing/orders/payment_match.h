#pragma once
// A payment that is not the order's (docs/billing.md, "Amount mismatches"): a correctly signed
// event (checkout completed, async payment succeeded) whose amount or currency differs from the
// order's never marks the order paid. The event processor books the money in the ledger all the
// same (money that arrived is in the books), and here the order is flagged amount_mismatch for
// staff (a filter and a badge on /admin/orders, like disputes) with a history line saying what
// arrived; it keeps its status and no tax invoice is issued, since the invoice would state a sum
// nobody paid.
#include "billing/orders/checkout_repository.h"
#include "billing/orders/order_repository.h"
#include "db/database.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace storefront::billing {

// What a payment event says was paid: the amount in minor units and the currency (any case).
struct PaidMoney {
    std::optional<std::int64_t> amount;
    std::optional<std::string> currency;
};

// Whether the payment is the order's: the same amount and the same currency. An event that states
// neither is the order's (nothing to compare); one that states only one is compared on that one.
bool paymentMatchesOrder(const PaidMoney& paid, const OrderState& order);

// A one-off payment (not a subscription's: its first invoice may differ from the plan's price) that
// does not match the order: the checkout is completed with the order left as it is, `book` puts
// the money in the ledger, the order is flagged amount_mismatch with a history line for staff,
// and a warning is logged (the flag and line once per order). True when the payment was held;
// false when it matches (the caller marks the order paid as usual).
bool holdIfMismatched(db::Tx& tx, OrderRepository& orders, CheckoutRepository& checkouts, const Checkout& checkout,
                      const PaidMoney& paid, const OrderState& order, const std::string& eventType,
                      const std::function<void()>& book);

} // namespace storefront::billing

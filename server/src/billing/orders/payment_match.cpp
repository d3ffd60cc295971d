#include "billing/orders/payment_match.h"

#include "catalog/money.h"

#include <Poco/Logger.h>
#include <Poco/String.h>

namespace storefront::billing {

bool paymentMatchesOrder(const PaidMoney& paid, const OrderState& order) {
    if (paid.amount && *paid.amount != order.totalAmount) return false;
    if (paid.currency && Poco::toUpper(*paid.currency) != Poco::toUpper(order.currency)) return false;
    return true;
}

bool holdIfMismatched(db::Tx& tx, OrderRepository& orders, CheckoutRepository& checkouts, const Checkout& checkout,
                      const PaidMoney& paid, const OrderState& order, const std::string& eventType,
                      const std::function<void()>& book) {
    if (checkout.mode == "subscription" || paymentMatchesOrder(paid, order)) return false;
    const auto& orderId = checkout.orderId;
    checkouts.markCompletedOnly(tx, checkout.id);
    book();
    if (!orders.flagAmountMismatch(tx, orderId)) return true;
    const auto currency = Poco::toUpper(paid.currency.value_or(order.currency));
    const auto amount = paid.amount.value_or(order.totalAmount);
    const auto said = catalog::formatMoney(amount, currency) + " " + currency;
    const auto due = catalog::formatMoney(order.totalAmount, order.currency) + " " + order.currency;
    orders.addHistory(tx, {orderId, order.status, order.status, source::kProvider, std::nullopt, std::nullopt,
                           "Payment of " + said + " received (" + eventType + ") for an order of " + due +
                               ": not marked paid and no tax invoice issued; check the payment, then refund it or mark the "
                               "order paid."});
    Poco::Logger::get("billing").warning("order %s: a payment of %s arrived for an order of %s: flagged amount_mismatch",
                                         orderId, said, due);
    return true;
}

} // namespace storefront::billing

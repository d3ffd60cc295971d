#include "billing/orders/lifecycle.h"

#include "billing/orders/order_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>
#include <array>

namespace storefront::billing {

namespace {

struct Row {
    OrderPath path;
    const char* from;
    const char* to;
    enum Needs { Nothing, Physical, PaidAfterCancellation } needs;
};

// The table (docs/billing.md has it as prose and a table; keep the two the same).
constexpr std::array kTable = {
    // Staff's decisions.
    Row{OrderPath::Staff, "pending", "paid", Row::Nothing},      // Mark as paid: money received outside the provider
    Row{OrderPath::Staff, "pending", "cancelled", Row::Nothing}, // stock back, the checkout expired
    Row{OrderPath::Staff, "paid", "shipped", Row::Physical},
    Row{OrderPath::Staff, "paid", "completed", Row::Nothing},
    Row{OrderPath::Staff, "shipped", "completed", Row::Nothing},
    Row{OrderPath::Staff, "cancelled", "paid", Row::PaidAfterCancellation}, // reinstated
    // Cancelling a paid order: its own action, the remainder refunded through the provider first.
    Row{OrderPath::StaffCancel, "paid", "cancelled", Row::Nothing},
    Row{OrderPath::StaffCancel, "refunded", "cancelled", Row::Nothing}, // only after the cancel's own refund (OrderAdmin::cancel)
    // The customer's own cancel of an unpaid order.
    Row{OrderPath::Customer, "pending", "cancelled", Row::Nothing},
    // The money arrived: a pending order, or one the customer or the expiry had cancelled (a staff
    // cancellation keeps it cancelled: the same status, flagged as a late payment).
    Row{OrderPath::Payment, "pending", "paid", Row::Nothing},
    Row{OrderPath::Payment, "cancelled", "paid", Row::Nothing},
    // A closed account's order that nothing had cancelled: cancelled now, the money a late payment.
    Row{OrderPath::Payment, "pending", "cancelled", Row::Nothing},
    // Refunds: paid out in full, or failed after all (back to where it was).
    Row{OrderPath::Refund, "paid", "refunded", Row::Nothing},
    Row{OrderPath::Refund, "shipped", "refunded", Row::Nothing},
    Row{OrderPath::Refund, "completed", "refunded", Row::Nothing},
    Row{OrderPath::Refund, "refunded", "paid", Row::Nothing},
    Row{OrderPath::Refund, "refunded", "shipped", Row::Nothing},
    Row{OrderPath::Refund, "refunded", "completed", Row::Nothing},
    // Nobody paid: the checkout expired (the expiry job, the provider's event) or was given up.
    Row{OrderPath::Expiry, "pending", "cancelled", Row::Nothing},
};

bool holds(const Row& row, const OrderFacts& facts) {
    switch (row.needs) {
    case Row::Physical: return facts.physical;
    case Row::PaidAfterCancellation: return facts.paidAfterCancellation;
    case Row::Nothing: return true;
    }
    return false;
}

} // namespace

std::vector<std::string> allowedMoves(OrderPath path, const std::string& from, const OrderFacts& facts) {
    std::vector<std::string> out;
    for (const auto& row : kTable)
        if (row.path == path && from == row.from && holds(row, facts)) out.emplace_back(row.to);
    return out;
}

bool permits(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts) {
    if (from == to) return true;
    const auto allowed = allowedMoves(path, from, facts);
    return std::find(allowed.begin(), allowed.end(), to) != allowed.end();
}

void requireMove(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts) {
    if (!permits(path, from, to, facts)) refuseMove(path, from, to, facts);
}

void refuseMove(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts) {
    // What staff can do from here is what the answer offers, whichever path was refused.
    const auto allowed = allowedMoves(path == OrderPath::StaffCancel ? OrderPath::Staff : path, from, facts);
    std::string message = "An order that is " + from + " cannot be moved to " + to + ".";
    if (path == OrderPath::Staff && to == "cancelled" && from != "pending")
        message = "A paid order is cancelled with Cancel order, which refunds it: its status cannot simply be set to cancelled.";
    else if (path == OrderPath::Staff && to == "shipped" && from == "paid" && !facts.physical)
        message = "Digital order: nothing to ship.";
    else if (path == OrderPath::StaffCancel)
        message = "Only a paid order can be cancelled with a refund; this one is " + from + ".";
    http::ApiError error(http::ErrorKind::Conflict, "invalid_transition", message);
    error.extra = {{"from", from}, {"to", to}, {"allowed", allowed}};
    throw error;
}

void moveOrder(db::Tx& tx, OrderRepository& orders, const std::string& orderId, OrderPath path, const std::string& from,
          const std::string& to, const std::string& source, bool paidAfterCancellation, const OrderFacts& facts) {
    requireMove(path, from, to, facts);
    // Every caller read `from` under the order's lock: another status now is a bug, never a silent success.
    if (!orders.setStatus(tx, orderId, from, to, source, paidAfterCancellation)) {
        Poco::Logger::get("billing").error("order %s was not %s when it moved to %s: nothing changed", orderId, from, to);
        throw http::ApiError(http::ErrorKind::Conflict, "state_changed",
                             "This order changed while it was being updated. Reload it and try again.");
    }
}

bool cancelUnpaid(db::Tx& tx, OrderRepository& orders, const std::string& orderId, const std::string& source,
                  const std::string& note) {
    auto state = orders.lock(tx, orderId);
    if (!state || state->status != "pending") return false;
    moveOrder(tx, orders, orderId, OrderPath::Expiry, state->status, "cancelled", source, false, {});
    orders.addHistory(tx, {orderId, state->status, "cancelled", source, std::nullopt, std::nullopt, note});
    return true;
}

} // namespace storefront::billing

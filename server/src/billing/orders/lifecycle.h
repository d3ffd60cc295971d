#pragma once
// The order lifecycle (docs/billing.md, "Order lifecycle"): the one table of the moves an order's
// status may make, by the path that makes it, and the one function every path calls to make
// one. Staff's PATCH, bulk shipping, the cancel of a paid order, the customer's own cancel, the
// payment events, the refunds and the expiry of an unpaid checkout all change an order's status through `move`; a move the table
// does not hold is 409 invalid_transition {from, to, allowed} and changes nothing.
#include <string>
#include <vector>

namespace storefront::db {
class Tx;
}

namespace storefront::billing {

class OrderRepository;

// Who moves the order, and why: each has its own rows of the table.
enum class OrderPath {
    Staff,          // PATCH /api/v1/admin/orders/{id} and bulk shipping: staff's decisions
    StaffCancel,    // POST /api/v1/admin/orders/{id}/cancel: a paid order, its remainder refunded first
    Customer,       // the customer's own cancel of their unpaid order
    Payment,        // the provider's news that the money arrived (a checkout completed)
    Refund,         // a refund paid out (to refunded) or failed after all (back from refunded)
    Expiry,         // nobody paid: the checkout expired, failed or was given up (the expiry job, the provider)
};

// What the table needs to know of the order besides its status.
struct OrderFacts {
    bool physical = false;              // a line of a physical product: it can ship
    bool paidAfterCancellation = false; // money arrived after it was cancelled: it may be reinstated
};

// The statuses `path` may move an order from `from` to (never `from` itself: the same status
// again is no move). For Staff this is the order JSON's `allowed_statuses`.
std::vector<std::string> allowedMoves(OrderPath path, const std::string& from, const OrderFacts& facts);

// Whether the table holds from -> to for `path` (the same status again always does: no move).
bool permits(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts);

// Throws the 409 invalid_transition ApiError unless permits(): its body names from, to and
// allowed (the statuses staff may move it to from here, or those of `path`).
void requireMove(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts);

// Throws the 409 invalid_transition for from -> to (whatever the table says): for a move that
// needs more than the table (Cancel order starts only from paid).
[[noreturn]] void refuseMove(OrderPath path, const std::string& from, const std::string& to, const OrderFacts& facts);

// Checks the move against the table, then writes it (orders.status, status_source, the
// paid-after-cancellation flag). Call under the order's lock (OrderRepository::lock), with the
// status read there as `from`. The history row is the caller's (its note says why).
void moveOrder(db::Tx& tx, OrderRepository& orders, const std::string& orderId, OrderPath path, const std::string& from,
          const std::string& to, const std::string& source, bool paidAfterCancellation, const OrderFacts& facts);

// The one way an unpaid order ends (OrderPath::Expiry): under the order's lock, a pending order
// moves to cancelled with its history row (`note` says why); false, and nothing written, for an
// order in any other status (paid meanwhile, cancelled already). The caller gives the stock back.
bool cancelUnpaid(db::Tx& tx, OrderRepository& orders, const std::string& orderId, const std::string& source,
                  const std::string& note);

} // namespace storefront::billing

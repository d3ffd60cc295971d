#pragma once
// Which orders can ship, as SQL over the orders table aliased `o`: the one definition the orders
// (their `has_physical_items`, the staff list's `to_ship` filter) and the back office's to-do count
// share. An order can ship when it has a line of a physical product, or (its product since
// deleted) the shipping address its checkout collected; order_items_order_id_idx serves the look-up.
// Macros, so that statements are put together from string literals at compile time.

#define STOREFRONT_ORDER_CAN_SHIP                                                                                     \
    "(o.shipping_line1 IS NOT NULL OR EXISTS (SELECT 1 FROM order_items hp JOIN products pp "                        \
    "ON pp.id = hp.product_id WHERE hp.order_id = o.id AND pp.type = 'physical'))"

// Paid, with something to ship, and not shipped yet: the staff's "to ship" (orders_status_created_at_idx
// narrows it to the paid orders first).
#define STOREFRONT_ORDER_AWAITING_SHIPMENT "(o.status = 'paid' AND " STOREFRONT_ORDER_CAN_SHIP ")"

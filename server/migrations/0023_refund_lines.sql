-- 0023 refunds by line (docs/billing.md, "Refunds").
--
-- Design notes
-- * order_refund_lines: which lines, and how many of each, a refund returns money for. A line's
--   refunded quantity is the sum over its refunds that still count (requested, pending or
--   succeeded): a failed refund gives its quantities back to be refunded again.
-- * order_items.restocked_quantity: how many of the line went back to stock, so a restock returns
--   exactly what was refunded and never the same item twice (a refund of one of two cables
--   returns one).
-- * The refund's checkout keeps what is still out (checkout_sessions.stock_reserved shrinks as
--   lines come back), so the older whole-order stock paths stay exact.

CREATE TABLE order_refund_lines (
    refund_id      UUID NOT NULL
                   CONSTRAINT order_refund_lines_refund_id_fkey REFERENCES order_refunds (id) ON DELETE CASCADE,
    order_item_id  UUID NOT NULL
                   CONSTRAINT order_refund_lines_order_item_id_fkey REFERENCES order_items (id) ON DELETE CASCADE,
    quantity       INTEGER NOT NULL CONSTRAINT order_refund_lines_quantity_check CHECK (quantity >= 1),
    CONSTRAINT order_refund_lines_pkey PRIMARY KEY (refund_id, order_item_id)
);

CREATE INDEX order_refund_lines_order_item_id_idx ON order_refund_lines (order_item_id);

ALTER TABLE order_items ADD COLUMN restocked_quantity INTEGER NOT NULL DEFAULT 0;

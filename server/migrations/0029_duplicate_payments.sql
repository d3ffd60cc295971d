-- 0029 a payment for an order already paid another way (docs/billing.md, "Staff decisions and
-- late payments": a payment for an order already paid).
--
-- Design notes
-- * order_late_payments.reason: after_cancellation (money after staff or the customer cancelled:
--   refund or reinstate) or already_paid (money for an order paid already, by Mark as paid or by
--   another provider payment: return it). Existing rows are after_cancellation.
-- * orders.payment_to_return flags an order with an already_paid payment not yet returned in
--   full, for staff: the orders list's filter and the to-do count "payments to return"; the index
--   serves both (few rows).
-- * order_refunds.late_payment_id: a refund that returns such a payment through the provider
--   (against that payment, not the order's): money out in the ledger, no credit note (the supply
--   did not change), and neither the order's refunded amount nor its status moves.

ALTER TABLE order_late_payments ADD COLUMN reason TEXT NOT NULL DEFAULT 'after_cancellation'
    CONSTRAINT order_late_payments_reason_check CHECK (reason IN ('after_cancellation', 'already_paid'));

ALTER TABLE orders ADD COLUMN payment_to_return BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT orders_payment_to_return_check CHECK (payment_to_return IN (TRUE, FALSE));

CREATE INDEX orders_payment_to_return_created_at_idx ON orders (payment_to_return, created_at);

ALTER TABLE order_refunds ADD COLUMN late_payment_id UUID
    CONSTRAINT order_refunds_late_payment_id_fkey REFERENCES order_late_payments (id) ON DELETE SET NULL;

-- 0026 payments whose amount or currency is not the order's, PostgreSQL half (the SQLite half,
-- 0026_amount_mismatch.sqlite.sql, is the same statements).
--
-- Design notes (docs/billing.md, "Amount mismatches")
-- * A correctly signed payment event (checkout completed, async payment succeeded) whose amount or
--   currency differs from the order's does not mark it paid: the money enters the ledger, the
--   order stays as it was with amount_mismatch set for staff (a filter on the staff orders list and
--   a badge, like disputed), and no tax invoice is issued.
-- * orders_amount_mismatch_created_at_idx serves the filter in the list's order.

ALTER TABLE orders ADD COLUMN amount_mismatch BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT orders_amount_mismatch_check CHECK (amount_mismatch IN (TRUE, FALSE));

CREATE INDEX orders_amount_mismatch_created_at_idx ON orders (amount_mismatch, created_at);

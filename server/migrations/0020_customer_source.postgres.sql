-- 0020 a customer as the source of an order's status, PostgreSQL half (the SQLite half,
-- 0020_customer_source.sqlite.sql, differs only in how the checks gain 'customer').
--
-- Design notes (docs/billing.md, "Unpaid orders")
-- * A customer cancelling their own unpaid order (POST /api/v1/account/orders/{id}/cancel) is a
--   decision, like staff's: a payment that lands afterwards is a late payment. The order's
--   status_source and the history row say so with source 'customer'.

ALTER TABLE orders DROP CONSTRAINT orders_status_source_check;

ALTER TABLE orders ADD CONSTRAINT orders_status_source_check
    CHECK (status_source IN ('staff', 'provider', 'system', 'customer'));

ALTER TABLE order_status_history DROP CONSTRAINT order_status_history_source_check;

ALTER TABLE order_status_history ADD CONSTRAINT order_status_history_source_check
    CHECK (source IN ('staff', 'provider', 'system', 'customer'));

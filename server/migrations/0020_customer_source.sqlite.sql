-- 0020 a customer as the source of an order's status, SQLite half (the PostgreSQL half,
-- 0020_customer_source.postgres.sql, differs only in how the checks gain 'customer').
--
-- Design notes (docs/billing.md, "Unpaid orders")
-- * A customer cancelling their own unpaid order (POST /api/v1/account/orders/{id}/cancel) is a
--   decision, like staff's: a payment that lands afterwards is a late payment. The order's
--   status_source and the history row say so with source 'customer'.
-- * SQLite cannot alter a CHECK constraint: as in 0016, the constraint's text is edited in
--   sqlite_schema (no stored row holds the new value yet) and writable_schema=RESET reloads the
--   schema on this connection. A table made and dropped bumps the schema cookie (0016's new
--   tables did that there), so every other connection reloads it too.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(sql, '''provider'', ''system'')', '''provider'', ''system'', ''customer'')')
WHERE type = 'table' AND name IN ('orders', 'order_status_history');

PRAGMA writable_schema = RESET;

CREATE TABLE schema_cookie_0020 (x INTEGER);

DROP TABLE schema_cookie_0020;

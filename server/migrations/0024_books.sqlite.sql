-- 0024 the books staff and the accountant trust, SQLite half (the PostgreSQL half,
-- 0024_books.postgres.sql, has the design notes; this one differs only in how the checks widen
-- and how the JSON is read).
-- * SQLite cannot alter a CHECK constraint: as in 0016 and 0020, the constraint's text is edited
--   in sqlite_schema (no stored row holds the new value yet) and writable_schema=RESET reloads
--   the schema; the table made and dropped bumps the schema cookie for the other connections.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(sql, '''refund_reversal'', ''dispute_lost'')', '''refund_reversal'', ''dispute_lost'', ''manual_payment'')')
WHERE type = 'table' AND name = 'payment_ledger';

UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (kind IN (''invoice'', ''credit_note''))', 'CHECK (kind IN (''invoice'', ''credit_note'', ''debit_note''))')
WHERE type = 'table' AND name = 'tax_invoices';

PRAGMA writable_schema = RESET;

CREATE TABLE schema_cookie_0024 (x INTEGER);

DROP TABLE schema_cookie_0024;

ALTER TABLE tax_invoices ADD COLUMN buyer_name TEXT;

ALTER TABLE tax_invoices ADD COLUMN buyer_email TEXT;

ALTER TABLE tax_invoices ADD COLUMN order_number TEXT;

ALTER TABLE tax_invoices ADD COLUMN zero_rated BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE tax_invoices ADD COLUMN subscription_id UUID CONSTRAINT tax_invoices_subscription_id_fkey REFERENCES subscriptions (id) ON DELETE SET NULL;

UPDATE tax_invoices SET subscription_id = (SELECT l.subscription_id FROM payment_ledger l WHERE l.kind = 'subscription_payment'
    AND tax_invoices.source_key = 'invoice:' || l.provider || ':' || l.provider_id LIMIT 1) WHERE kind = 'invoice' AND source_key LIKE 'invoice:%';

UPDATE tax_invoices SET buyer_name = json_extract(document, '$.buyer.name'), buyer_email = json_extract(document, '$.buyer.email'),
    order_number = json_extract(document, '$.order_number'),
    zero_rated = COALESCE(json_extract(document, '$.zero_rated'), 0);

CREATE INDEX tax_invoices_issued_at_idx ON tax_invoices (issued_at, seq);

CREATE INDEX tax_invoices_kind_seq_idx ON tax_invoices (kind, seq);

-- 0024 the books staff and the accountant trust, PostgreSQL half (the SQLite half,
-- 0024_books.sqlite.sql, differs only in how the checks widen and how the JSON is read).
--
-- Design notes (docs/billing.md, "Order lifecycle", "Debit notes", "The accountant's view")
-- * payment_ledger.kind gains 'manual_payment': staff's "Mark as paid" for money that arrived
--   outside the payment provider (a bank transfer), with its reference as provider_id.
-- * tax_invoices.kind gains 'debit_note': a refund that fails at the provider after its credit
--   note was issued is reversed by a debit note from the same gapless sequence.
-- * The register (GET /api/v1/admin/invoices) filters and searches by buyer, order number and
--   zero rating: columns copied from each document as issued (documents never change), filled
--   here for the ones issued before; a subscription's invoice names its subscription
--   (subscription_id, filled from the ledger entry of the same provider invoice). tax_invoices_issued_at_idx serves the date range and the GST
--   report; tax_invoices_kind_seq_idx the kind filter in number order.

ALTER TABLE payment_ledger DROP CONSTRAINT payment_ledger_kind_check;

ALTER TABLE payment_ledger ADD CONSTRAINT payment_ledger_kind_check
    CHECK (kind IN ('order_payment', 'subscription_payment', 'refund', 'refund_reversal', 'dispute_lost', 'manual_payment'));

ALTER TABLE tax_invoices DROP CONSTRAINT tax_invoices_kind_check;

ALTER TABLE tax_invoices ADD CONSTRAINT tax_invoices_kind_check CHECK (kind IN ('invoice', 'credit_note', 'debit_note'));

ALTER TABLE tax_invoices ADD COLUMN buyer_name TEXT;

ALTER TABLE tax_invoices ADD COLUMN buyer_email TEXT;

ALTER TABLE tax_invoices ADD COLUMN order_number TEXT;

ALTER TABLE tax_invoices ADD COLUMN zero_rated BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE tax_invoices ADD COLUMN subscription_id UUID CONSTRAINT tax_invoices_subscription_id_fkey REFERENCES subscriptions (id) ON DELETE SET NULL;

UPDATE tax_invoices t SET subscription_id = (SELECT l.subscription_id FROM payment_ledger l WHERE l.kind = 'subscription_payment'
    AND t.source_key = 'invoice:' || l.provider || ':' || l.provider_id LIMIT 1) WHERE t.kind = 'invoice' AND t.source_key LIKE 'invoice:%';

UPDATE tax_invoices SET buyer_name = document::jsonb #>> '{buyer,name}', buyer_email = document::jsonb #>> '{buyer,email}',
    order_number = document::jsonb ->> 'order_number',
    zero_rated = COALESCE((document::jsonb ->> 'zero_rated')::boolean, FALSE);

CREATE INDEX tax_invoices_issued_at_idx ON tax_invoices (issued_at, seq);

CREATE INDEX tax_invoices_kind_seq_idx ON tax_invoices (kind, seq);

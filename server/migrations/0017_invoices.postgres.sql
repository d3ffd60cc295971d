-- 0017 New Zealand GST tax invoices and credit notes, PostgreSQL half (the SQLite half,
-- 0017_invoices.sqlite.sql, has the design notes; the schema is the same).
CREATE TABLE invoice_counters (
    name         TEXT NOT NULL PRIMARY KEY,
    last_number  BIGINT NOT NULL CONSTRAINT invoice_counters_last_number_check CHECK (last_number >= 0)
);
INSERT INTO invoice_counters (name, last_number) VALUES ('tax_invoice', 0);

CREATE TABLE tax_invoices (
    id               UUID NOT NULL PRIMARY KEY,
    seq              BIGINT NOT NULL CONSTRAINT tax_invoices_seq_check CHECK (seq > 0),
    number           TEXT NOT NULL CONSTRAINT tax_invoices_number_check CHECK (number <> ''),
    kind             TEXT NOT NULL CONSTRAINT tax_invoices_kind_check CHECK (kind IN ('invoice', 'credit_note')),
    source_key       TEXT NOT NULL,
    user_id          UUID CONSTRAINT tax_invoices_user_id_fkey REFERENCES users (id) ON DELETE SET NULL,
    order_id         UUID CONSTRAINT tax_invoices_order_id_fkey REFERENCES orders (id) ON DELETE SET NULL,
    adjusts_id       UUID CONSTRAINT tax_invoices_adjusts_id_fkey REFERENCES tax_invoices (id),
    currency         TEXT NOT NULL CONSTRAINT tax_invoices_currency_check CHECK (length(currency) = 3),
    total_amount     BIGINT NOT NULL CONSTRAINT tax_invoices_total_amount_check CHECK (total_amount >= 0),
    gst_amount       BIGINT NOT NULL CONSTRAINT tax_invoices_gst_amount_check CHECK (gst_amount >= 0),
    document         TEXT NOT NULL,
    issued_at        TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX tax_invoices_seq_key ON tax_invoices (seq);
CREATE UNIQUE INDEX tax_invoices_number_key ON tax_invoices (number);
CREATE UNIQUE INDEX tax_invoices_source_key_key ON tax_invoices (source_key);
-- The customer's list, newest first.
CREATE INDEX tax_invoices_user_id_seq_idx ON tax_invoices (user_id, seq);
-- An order's invoice and credit notes (order JSON, credit notes); at most one invoice per order.
CREATE INDEX tax_invoices_order_id_idx ON tax_invoices (order_id);
CREATE UNIQUE INDEX tax_invoices_order_invoice_key ON tax_invoices (order_id) WHERE kind = 'invoice';
CREATE INDEX tax_invoices_adjusts_id_idx ON tax_invoices (adjusts_id);

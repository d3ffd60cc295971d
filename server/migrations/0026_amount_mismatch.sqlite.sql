-- 0026 payments whose amount or currency is not the order's, SQLite half (the PostgreSQL half,
-- 0026_amount_mismatch.postgres.sql, is the same statements; the notes are there).

ALTER TABLE orders ADD COLUMN amount_mismatch BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT orders_amount_mismatch_check CHECK (amount_mismatch IN (TRUE, FALSE));

CREATE INDEX orders_amount_mismatch_created_at_idx ON orders (amount_mismatch, created_at);

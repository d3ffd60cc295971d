-- 0016 the payments ledger, refunds and disputes, PostgreSQL half (the SQLite half,
-- 0016_ledger.sqlite.sql, differs only in how the orders' status check gains 'refunded').
--
-- Design notes (docs/billing.md, "The ledger, refunds and disputes")
-- * Orders gain the status refunded (set when the refunds reach the total).

ALTER TABLE orders DROP CONSTRAINT orders_status_check;

ALTER TABLE orders ADD CONSTRAINT orders_status_check
    CHECK (status IN ('pending', 'paid', 'shipped', 'completed', 'cancelled', 'refunded'));

ALTER TABLE order_status_history DROP CONSTRAINT order_status_history_to_status_check;

ALTER TABLE order_status_history ADD CONSTRAINT order_status_history_to_status_check
    CHECK (to_status IN ('pending', 'paid', 'shipped', 'completed', 'cancelled', 'refunded'));

-- The money: one row per movement. amount is signed minor units: positive for money in (an order
-- paid, a subscription invoice paid), negative for money out (a refund, a lost dispute), so every
-- figure is a SUM per currency. entry_key is the idempotency key of the movement and unique: the
-- provider's object id under its kind ("stripe:payment:pi_...", "stripe:invoice:in_...",
-- "stripe:dispute:dp_..."), or "refund:<order_refunds.id>" for a refund (ours or the provider's),
-- so the same event 20 times, or the provider's news of a refund we made, makes one row.
CREATE TABLE payment_ledger (
    id               UUID NOT NULL PRIMARY KEY,
    entry_key        TEXT NOT NULL CONSTRAINT payment_ledger_entry_key_check CHECK (entry_key <> ''),
    kind             TEXT NOT NULL
                     CONSTRAINT payment_ledger_kind_check
                     CHECK (kind IN ('order_payment', 'subscription_payment', 'refund', 'refund_reversal', 'dispute_lost')),
    amount           BIGINT NOT NULL,
    currency         TEXT NOT NULL CONSTRAINT payment_ledger_currency_check CHECK (currency IN ('NZD', 'AUD', 'USD')),
    provider         TEXT NOT NULL,
    provider_id      TEXT,
    order_id         UUID CONSTRAINT payment_ledger_order_id_fkey REFERENCES orders (id) ON DELETE SET NULL,
    subscription_id  UUID CONSTRAINT payment_ledger_subscription_id_fkey REFERENCES subscriptions (id) ON DELETE SET NULL,
    refund_id        UUID,
    event_id         TEXT,
    occurred_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX payment_ledger_entry_key_key ON payment_ledger (entry_key);

-- Revenue per currency since a time (the dashboard's recent figure).
CREATE INDEX payment_ledger_occurred_at_idx ON payment_ledger (occurred_at, currency);

CREATE INDEX payment_ledger_order_id_idx ON payment_ledger (order_id);

CREATE INDEX payment_ledger_subscription_id_idx ON payment_ledger (subscription_id);

-- Refunds of an order. A refund staff make is written first (status requested) and its id is the
-- provider's idempotency key; the provider's refund id (re_...) is stored once known and is unique,
-- so a refund made in the provider's dashboard, or its news arriving after ours, lands on one row.
-- Statuses: requested (sent or about to be), pending and succeeded (money out: in the ledger),
-- failed and canceled (no money out). client_key is the browser's Idempotency-Key, unique per order.
CREATE TABLE order_refunds (
    id                  UUID NOT NULL PRIMARY KEY,
    order_id            UUID NOT NULL CONSTRAINT order_refunds_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
    amount              BIGINT NOT NULL CONSTRAINT order_refunds_amount_check CHECK (amount > 0),
    currency            TEXT NOT NULL CONSTRAINT order_refunds_currency_check CHECK (currency IN ('NZD', 'AUD', 'USD')),
    reason              TEXT,
    restock             BOOLEAN NOT NULL DEFAULT FALSE CONSTRAINT order_refunds_restock_check CHECK (restock IN (TRUE, FALSE)),
    status              TEXT NOT NULL
                        CONSTRAINT order_refunds_status_check
                        CHECK (status IN ('requested', 'pending', 'succeeded', 'failed', 'canceled')),
    source              TEXT NOT NULL CONSTRAINT order_refunds_source_check CHECK (source IN ('staff', 'provider')),
    provider            TEXT NOT NULL,
    provider_refund_id  TEXT,
    client_key          TEXT,
    actor_id            UUID,
    actor_email         TEXT,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX order_refunds_order_id_idx ON order_refunds (order_id, created_at);

CREATE UNIQUE INDEX order_refunds_provider_refund_id_key ON order_refunds (provider, provider_refund_id);

CREATE UNIQUE INDEX order_refunds_client_key_key ON order_refunds (order_id, client_key);

-- What the order shows: the sum of its pending and succeeded refunds, and whether a dispute was opened.
-- restocked_at: when a refund gave the items back (once per order).
ALTER TABLE orders ADD COLUMN refunded_amount BIGINT NOT NULL DEFAULT 0
    CONSTRAINT orders_refunded_amount_check CHECK (refunded_amount >= 0);

ALTER TABLE orders ADD COLUMN disputed BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT orders_disputed_check CHECK (disputed IN (TRUE, FALSE));

ALTER TABLE orders ADD COLUMN restocked_at TIMESTAMP WITH TIME ZONE;

-- The provider's payment of an order (Stripe: the payment intent; the local provider: its checkout
-- session), which a refund is made against and a charge's events are matched by.
ALTER TABLE orders ADD COLUMN payment_provider TEXT;

ALTER TABLE orders ADD COLUMN provider_payment_id TEXT;

CREATE INDEX orders_provider_payment_id_idx ON orders (provider_payment_id);

CREATE INDEX orders_disputed_created_at_idx ON orders (disputed, created_at);

-- Disputes: one row per provider dispute, the order it is about and its latest status.
CREATE TABLE order_disputes (
    id                   UUID NOT NULL PRIMARY KEY,
    order_id             UUID CONSTRAINT order_disputes_order_id_fkey REFERENCES orders (id) ON DELETE SET NULL,
    provider             TEXT NOT NULL,
    provider_dispute_id  TEXT NOT NULL,
    amount               BIGINT NOT NULL,
    currency             TEXT NOT NULL,
    status               TEXT NOT NULL,
    reason               TEXT,
    created_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at           TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX order_disputes_provider_dispute_id_key ON order_disputes (provider, provider_dispute_id);

CREATE INDEX order_disputes_order_id_idx ON order_disputes (order_id);

-- The money already taken before the ledger existed: each paid, shipped or completed order (not one
-- paid after staff cancelled it) enters once, at its creation time, under its own id.
INSERT INTO payment_ledger (id, entry_key, kind, amount, currency, provider, provider_id, order_id, occurred_at)
SELECT id, 'order:' || CAST(id AS TEXT), 'order_payment', total_amount, currency, 'unknown', NULL, id, created_at
FROM orders WHERE status IN ('paid', 'shipped', 'completed') AND paid_after_cancellation = FALSE;

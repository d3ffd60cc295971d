-- 0025 subscriptions that run like a subscription business, SQLite half (the PostgreSQL half,
-- 0025_subscriptions.postgres.sql, has the design notes; this one differs only in how the
-- status check widens).
-- * SQLite cannot alter a CHECK constraint: as in 0024, the constraint's text is edited in
--   sqlite_schema (no stored row holds the new value yet) and writable_schema=RESET reloads the
--   schema; the table made and dropped bumps the schema cookie for the other connections.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(sql, '''expired'', ''trialing'')', '''expired'', ''trialing'', ''past_due'')')
WHERE type = 'table' AND name = 'subscriptions';

PRAGMA writable_schema = RESET;

CREATE TABLE schema_cookie_0025 (x INTEGER);

DROP TABLE schema_cookie_0025;

ALTER TABLE subscriptions ADD COLUMN past_due_since TIMESTAMP WITH TIME ZONE;

ALTER TABLE subscriptions ADD COLUMN current_period_start TIMESTAMP WITH TIME ZONE;

ALTER TABLE subscriptions ADD COLUMN trial_end TIMESTAMP WITH TIME ZONE;

ALTER TABLE subscriptions ADD COLUMN ended_at TIMESTAMP WITH TIME ZONE;

ALTER TABLE subscriptions ADD COLUMN credit_balance BIGINT NOT NULL DEFAULT 0
    CONSTRAINT subscriptions_credit_balance_check CHECK (credit_balance >= 0);

UPDATE subscriptions SET ended_at = updated_at WHERE status IN ('cancelled', 'expired');

DROP INDEX subscriptions_user_id_product_id_live_key;

CREATE UNIQUE INDEX subscriptions_user_id_product_id_live_key
    ON subscriptions (user_id, product_id) WHERE status IN ('active', 'trialing', 'past_due');

-- The reminder job: past-due and trialing subscriptions by when their deadline comes.
CREATE INDEX subscriptions_past_due_since_idx ON subscriptions (past_due_since) WHERE status = 'past_due';

CREATE INDEX subscriptions_trial_end_idx ON subscriptions (trial_end) WHERE status = 'trialing';

ALTER TABLE pricing_plans ADD COLUMN trial_days INTEGER NOT NULL DEFAULT 0
    CONSTRAINT pricing_plans_trial_days_check CHECK (trial_days >= 0 AND trial_days <= 90);

-- A checkout that starts a trial says so (the local test page offers "Start free trial").
ALTER TABLE checkout_sessions ADD COLUMN trial_days INTEGER NOT NULL DEFAULT 0;

CREATE TABLE subscription_notices (
    subscription_id  UUID NOT NULL CONSTRAINT subscription_notices_subscription_id_fkey
                     REFERENCES subscriptions (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL,
    about            TEXT NOT NULL,
    sent_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (subscription_id, kind, about)
);

CREATE TABLE local_renewal_outcomes (
    provider_subscription_id  TEXT NOT NULL PRIMARY KEY,
    outcome                   TEXT NOT NULL CONSTRAINT local_renewal_outcomes_outcome_check
                              CHECK (outcome IN ('succeeded', 'declined'))
);

-- Refunds of subscription payments (docs/billing.md, "Subscription refunds"): each paid provider
-- invoice of a subscription, with the payment that paid it (a refund goes back through it), and
-- the refunds of each, by staff or from the provider's dashboard. refunded_amount counts what the
-- refunds that moved money took back, so an invoice is never refunded beyond what it took.
CREATE TABLE subscription_payments (
    id                   UUID NOT NULL PRIMARY KEY,
    subscription_id      UUID NOT NULL CONSTRAINT subscription_payments_subscription_id_fkey
                         REFERENCES subscriptions (id) ON DELETE CASCADE,
    provider             TEXT NOT NULL,
    provider_invoice_id  TEXT NOT NULL,
    provider_payment_id  TEXT,
    amount               BIGINT NOT NULL CONSTRAINT subscription_payments_amount_check CHECK (amount > 0),
    currency             TEXT NOT NULL CONSTRAINT subscription_payments_currency_check CHECK (currency IN ('NZD', 'AUD', 'USD')),
    refunded_amount      BIGINT NOT NULL DEFAULT 0 CONSTRAINT subscription_payments_refunded_amount_check CHECK (refunded_amount >= 0),
    paid_at              TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX subscription_payments_provider_invoice_id_key ON subscription_payments (provider, provider_invoice_id);

CREATE INDEX subscription_payments_subscription_id_idx ON subscription_payments (subscription_id, paid_at);

CREATE INDEX subscription_payments_provider_payment_id_idx ON subscription_payments (provider, provider_payment_id);

CREATE TABLE subscription_refunds (
    id                  UUID NOT NULL PRIMARY KEY,
    payment_id          UUID NOT NULL CONSTRAINT subscription_refunds_payment_id_fkey
                        REFERENCES subscription_payments (id) ON DELETE CASCADE,
    amount              BIGINT NOT NULL CONSTRAINT subscription_refunds_amount_check CHECK (amount > 0),
    currency            TEXT NOT NULL,
    reason              TEXT,
    status              TEXT NOT NULL CONSTRAINT subscription_refunds_status_check
                        CHECK (status IN ('requested', 'pending', 'succeeded', 'failed', 'canceled')),
    source              TEXT NOT NULL CONSTRAINT subscription_refunds_source_check CHECK (source IN ('staff', 'provider')),
    provider_refund_id  TEXT,
    client_key          TEXT,
    actor_id            UUID,
    actor_email         TEXT,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX subscription_refunds_provider_refund_id_key ON subscription_refunds (provider_refund_id);

CREATE UNIQUE INDEX subscription_refunds_client_key_key ON subscription_refunds (payment_id, client_key);

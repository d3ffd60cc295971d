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

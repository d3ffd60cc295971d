-- 0025 subscriptions that run like a subscription business, PostgreSQL half (the SQLite half,
-- 0025_subscriptions.sqlite.sql, differs only in how the status check widens).
--
-- Design notes (docs/billing.md, "Subscription lifecycle")
-- * status gains 'past_due': a failed renewal while the provider retries the card. Access lasts
--   STOREFRONT_PAST_DUE_GRACE_DAYS from past_due_since (the first failure of this renewal), which
--   a successful payment clears. One subscription per user and product is held while active,
--   trialing or past due (the partial unique index widens with it).
-- * current_period_start is the start of the period current_period_end ends: proration reads both.
-- * trial_end: the end of the trial (the first charge); ended_at: when access ended (cancelled or
--   expired), for the dashboard's "Past subscriptions".
-- * credit_balance: credit owed to the customer from a plan change (minor units of the
--   subscription's currency), taken off the next renewal, never paid out (Stripe's customer balance).
-- * pricing_plans.trial_days: a trial of 0 to 90 days for a plan's first subscription to its product.
-- * subscription_notices: one row per mail that must go once per renewal (payment_failed,
--   payment_reminder, trial_ending), keyed by what it is about, so a repeated event or a job round
--   on another server sends nothing twice.
-- * local_renewal_outcomes: the local test provider's card outcome for each of its subscriptions'
--   next renewal (development only: "Decline the next renewal").

ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;

ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('active', 'pending', 'cancelled', 'expired', 'trialing', 'past_due'));

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

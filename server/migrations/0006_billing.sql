-- 0006 billing: checkout sessions, the payment-event inbox, test-portal sessions, and the columns
-- event ordering needs. Same portability rules as 0001 (see docs/database.md).
--
-- Design notes (docs/billing.md has the whole flow)
-- * checkout_sessions is one attempt to pay: created with its pending order in the transaction
--   that reserves stock, then linked to the provider's session id. stock_reserved counts the units
--   taken from products.stock_quantity, and stock_state says what became of them: reserved while
--   open, settled when paid, released (given back) when expired or abandoned.
-- * payment_events is the inbox: every provider event under its unique id, written in the same
--   transaction as its effect, so a second delivery finds the row and changes nothing.
-- * subscriptions.provider_event_at is the provider time of the event that last set the row, so an
--   older event delivered late never overwrites a newer state.
-- * orders.provider_checkout_id names the provider session of a guest order (a payment link has no
--   checkout_sessions row), so that order is created once.

CREATE TABLE checkout_sessions (
    id                   UUID NOT NULL PRIMARY KEY,
    user_id              UUID CONSTRAINT checkout_sessions_user_id_fkey REFERENCES users (id) ON DELETE SET NULL,
    order_id             UUID NOT NULL
                         CONSTRAINT checkout_sessions_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
    product_id           UUID CONSTRAINT checkout_sessions_product_id_fkey REFERENCES products (id) ON DELETE SET NULL,
    pricing_plan_id      UUID
                         CONSTRAINT checkout_sessions_pricing_plan_id_fkey
                         REFERENCES pricing_plans (id) ON DELETE SET NULL,
    mode                 TEXT NOT NULL
                         CONSTRAINT checkout_sessions_mode_check CHECK (mode IN ('payment', 'subscription')),
    quantity             INTEGER NOT NULL CONSTRAINT checkout_sessions_quantity_check CHECK (quantity >= 1),
    amount_total         BIGINT NOT NULL CONSTRAINT checkout_sessions_amount_total_check CHECK (amount_total >= 0),
    currency             TEXT NOT NULL,
    provider             TEXT NOT NULL,
    provider_session_id  TEXT,
    url                  TEXT,
    success_url          TEXT NOT NULL,
    cancel_url           TEXT NOT NULL,
    status               TEXT NOT NULL
                         CONSTRAINT checkout_sessions_status_check
                         CHECK (status IN ('creating', 'open', 'completed', 'expired')),
    stock_reserved       INTEGER NOT NULL DEFAULT 0
                         CONSTRAINT checkout_sessions_stock_reserved_check CHECK (stock_reserved >= 0),
    stock_state          TEXT NOT NULL
                         CONSTRAINT checkout_sessions_stock_state_check
                         CHECK (stock_state IN ('none', 'reserved', 'settled', 'released')),
    expires_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    created_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at           TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX checkout_sessions_provider_session_id_key
    ON checkout_sessions (provider, provider_session_id);

-- The expiry job: open (or never linked) checkouts past their time.
CREATE INDEX checkout_sessions_status_expires_at_idx ON checkout_sessions (status, expires_at);

CREATE INDEX checkout_sessions_user_id_idx ON checkout_sessions (user_id);

CREATE INDEX checkout_sessions_order_id_idx ON checkout_sessions (order_id);

CREATE INDEX checkout_sessions_product_id_idx ON checkout_sessions (product_id);

CREATE INDEX checkout_sessions_pricing_plan_id_idx ON checkout_sessions (pricing_plan_id);

CREATE TABLE payment_events (
    provider          TEXT NOT NULL,
    event_id          TEXT NOT NULL,
    type              TEXT NOT NULL,
    event_created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    received_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    outcome           TEXT NOT NULL
                      CONSTRAINT payment_events_outcome_check CHECK (outcome IN ('applied', 'ignored')),
    payload           TEXT NOT NULL,
    PRIMARY KEY (provider, event_id)
);

CREATE INDEX payment_events_received_at_idx ON payment_events (received_at);

-- The local test provider's billing-portal links (Stripe keeps its own).
CREATE TABLE billing_portal_sessions (
    id          TEXT NOT NULL PRIMARY KEY,
    user_id     UUID NOT NULL
                CONSTRAINT billing_portal_sessions_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    return_url  TEXT NOT NULL,
    expires_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX billing_portal_sessions_user_id_idx ON billing_portal_sessions (user_id);

CREATE INDEX billing_portal_sessions_expires_at_idx ON billing_portal_sessions (expires_at);

ALTER TABLE subscriptions ADD COLUMN provider_event_at TIMESTAMP WITH TIME ZONE;

ALTER TABLE orders ADD COLUMN provider_checkout_id TEXT;

CREATE UNIQUE INDEX orders_provider_checkout_id_key ON orders (provider_checkout_id);

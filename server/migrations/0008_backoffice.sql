-- 0008 back office: order status history, payments that arrive after staff cancelled an order,
-- and the indexes the staff lists need. Same portability rules as 0001 (see docs/database.md).
--
-- Design notes (docs/billing.md, "Staff decisions and late payments")
-- * order_status_history has one row per status change of an order, written in the transaction
--   of the change: staff (PATCH /api/v1/admin/orders/{id}, with the actor), provider (a payment
--   event) or system (the checkout-expiry job, an abandoned checkout). seq numbers an order's
--   changes 1, 2, 3 under the order row's lock (each change first touches the order row), so two
--   staff changes at the same moment both land, in the order they committed.
-- * orders.status_source says who set the current status. A payment that arrives for an order
--   that staff cancelled never turns it back into paid: it is recorded in order_late_payments
--   (amount, provider and its reference) and orders.paid_after_cancellation is set, for staff to
--   refund or reinstate. The flag clears when staff move the order out of cancelled (reinstate).
--   Revenue counts paid, shipped and completed orders without the flag.
-- * order_late_payments is unique per order, provider and provider reference: the same payment
--   reported twice (completed and async_payment_succeeded, a redelivery) is stored once.

ALTER TABLE orders ADD COLUMN paid_after_cancellation BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT orders_paid_after_cancellation_check CHECK (paid_after_cancellation IN (TRUE, FALSE));

ALTER TABLE orders ADD COLUMN status_source TEXT
    CONSTRAINT orders_status_source_check CHECK (status_source IN ('staff', 'provider', 'system'));

CREATE TABLE order_status_history (
    id           UUID NOT NULL PRIMARY KEY,
    order_id     UUID NOT NULL
                 CONSTRAINT order_status_history_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CONSTRAINT order_status_history_seq_check CHECK (seq >= 1),
    at           TIMESTAMP WITH TIME ZONE NOT NULL,
    from_status  TEXT,
    to_status    TEXT NOT NULL
                 CONSTRAINT order_status_history_to_status_check
                 CHECK (to_status IN ('pending', 'paid', 'shipped', 'completed', 'cancelled')),
    source       TEXT NOT NULL
                 CONSTRAINT order_status_history_source_check CHECK (source IN ('staff', 'provider', 'system')),
    actor_id     UUID,
    actor_email  TEXT,
    note         TEXT
);

-- An order's history in order (the order page), and the seq guard.
CREATE UNIQUE INDEX order_status_history_order_id_seq_key ON order_status_history (order_id, seq);

CREATE TABLE order_late_payments (
    id                  UUID NOT NULL PRIMARY KEY,
    order_id            UUID NOT NULL
                        CONSTRAINT order_late_payments_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
    at                  TIMESTAMP WITH TIME ZONE NOT NULL,
    amount              BIGINT NOT NULL CONSTRAINT order_late_payments_amount_check CHECK (amount >= 0),
    currency            TEXT NOT NULL,
    provider            TEXT NOT NULL,
    provider_reference  TEXT NOT NULL,
    event_id            TEXT
);

CREATE UNIQUE INDEX order_late_payments_order_provider_reference_key
    ON order_late_payments (order_id, provider, provider_reference);

-- Admin order list: the 'paid after cancellation' filter, newest first (partial: few rows).
CREATE INDEX orders_paid_after_cancellation_created_at_idx ON orders (created_at, id) WHERE paid_after_cancellation = TRUE;

-- Admin order search by the customer's email (exact, any case).
CREATE INDEX orders_customer_email_idx ON orders (lower(customer_email), created_at);

-- Admin lists: stable newest-first pages (ties broken by id).
CREATE INDEX orders_created_at_id_idx ON orders (created_at, id);

CREATE INDEX subscriptions_created_at_id_idx ON subscriptions (created_at, id);

-- The status index of 0002 grows the columns revenue needs (GET /api/v1/admin/stats sums paid,
-- shipped and completed NZD orders without the flag, by time), so that sum reads the index alone;
-- the admin list by status still uses its (status, created_at) prefix.
DROP INDEX orders_status_created_at_idx;

CREATE INDEX orders_status_created_at_idx
    ON orders (status, created_at, paid_after_cancellation, currency, total_amount);

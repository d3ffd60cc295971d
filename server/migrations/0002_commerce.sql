-- 0002 commerce: subscriptions, orders, order items, payment-provider customers.
--
-- Same portability rules as 0001 (see docs/database.md). Checkout sessions and payment events
-- arrive with the payment work in a later migration, and this file holds what the account and admin
-- screens read.
--
-- Design notes
-- * subscriptions.status is the stored state: active, pending, cancelled, expired, trialing
--   (the provider's word). The user-facing "trial" of the active-subscription result is derived
--   from trialing, and subscription_source is derived from payment_provider.
-- * (payment_provider, provider_subscription_id) is unique, so a replayed provider webhook finds
--   the existing row instead of creating a second one. Both may be NULL (manual or promo grants).
-- * At most one active or trialing subscription per user and product (partial unique index):
--   a second one would mean charging the customer twice.
-- * A subscription keeps its product: deleting a product with subscriptions is refused
--   (ON DELETE RESTRICT), deactivate the product instead. Deleting a user with subscriptions is
--   refused too: the provider subscription must be cancelled first or it keeps charging.
-- * orders are accounting records and outlive their user (user_id SET NULL, like a guest order)
--   and their products: order_items keeps a snapshot of the product name and unit price, and
--   product_id / pricing_plan_id become NULL if the product or plan is deleted.
-- * payment_customers maps a user to the provider's customer id (one per provider), so the
--   billing portal and repeat checkouts reuse one customer.

CREATE TABLE subscriptions (
    id                        UUID NOT NULL PRIMARY KEY,
    user_id                   UUID NOT NULL
                              CONSTRAINT subscriptions_user_id_fkey REFERENCES users (id) ON DELETE RESTRICT,
    product_id                UUID NOT NULL
                              CONSTRAINT subscriptions_product_id_fkey REFERENCES products (id) ON DELETE RESTRICT,
    pricing_plan_id           UUID
                              CONSTRAINT subscriptions_pricing_plan_id_fkey
                              REFERENCES pricing_plans (id) ON DELETE SET NULL,
    status                    TEXT NOT NULL
                              CONSTRAINT subscriptions_status_check
                              CHECK (status IN ('active', 'pending', 'cancelled', 'expired', 'trialing')),
    payment_provider          TEXT NOT NULL
                              CONSTRAINT subscriptions_payment_provider_check CHECK (payment_provider <> ''),
    provider_subscription_id  TEXT,
    provider_customer_id      TEXT,
    current_period_end        TIMESTAMP WITH TIME ZONE,
    cancel_at_period_end      BOOLEAN NOT NULL DEFAULT FALSE
                              CONSTRAINT subscriptions_cancel_at_period_end_check
                              CHECK (cancel_at_period_end IN (TRUE, FALSE)),
    created_at                TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at                TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX subscriptions_provider_subscription_id_key
    ON subscriptions (payment_provider, provider_subscription_id);

CREATE UNIQUE INDEX subscriptions_user_id_product_id_live_key
    ON subscriptions (user_id, product_id) WHERE status IN ('active', 'trialing');

-- Dashboard: a user's subscriptions, newest first.
CREATE INDEX subscriptions_user_id_created_at_idx ON subscriptions (user_id, created_at);

-- Admin list with a status filter, newest first, and the active-subscription count.
CREATE INDEX subscriptions_status_created_at_idx ON subscriptions (status, created_at);

-- Admin list without a filter.
CREATE INDEX subscriptions_created_at_idx ON subscriptions (created_at);

CREATE INDEX subscriptions_product_id_idx ON subscriptions (product_id);

CREATE INDEX subscriptions_pricing_plan_id_idx ON subscriptions (pricing_plan_id);

CREATE TABLE orders (
    id              UUID NOT NULL PRIMARY KEY,
    order_number    TEXT NOT NULL CONSTRAINT orders_order_number_check CHECK (order_number <> ''),
    user_id         UUID CONSTRAINT orders_user_id_fkey REFERENCES users (id) ON DELETE SET NULL,
    status          TEXT NOT NULL DEFAULT 'pending'
                    CONSTRAINT orders_status_check
                    CHECK (status IN ('pending', 'paid', 'shipped', 'completed', 'cancelled')),
    total_amount    BIGINT NOT NULL CONSTRAINT orders_total_amount_check CHECK (total_amount >= 0),
    currency        TEXT NOT NULL DEFAULT 'NZD'
                    CONSTRAINT orders_currency_check CHECK (currency IN ('NZD', 'AUD', 'USD')),
    customer_email  TEXT,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX orders_order_number_key ON orders (order_number);

-- Dashboard order history: a user's orders, newest first.
CREATE INDEX orders_user_id_created_at_idx ON orders (user_id, created_at);

-- Admin list with a status filter, newest first, and revenue (status paid).
CREATE INDEX orders_status_created_at_idx ON orders (status, created_at);

CREATE INDEX orders_created_at_idx ON orders (created_at);

CREATE TABLE order_items (
    id               UUID NOT NULL PRIMARY KEY,
    order_id         UUID NOT NULL
                     CONSTRAINT order_items_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
    product_id       UUID
                     CONSTRAINT order_items_product_id_fkey REFERENCES products (id) ON DELETE SET NULL,
    pricing_plan_id  UUID
                     CONSTRAINT order_items_pricing_plan_id_fkey REFERENCES pricing_plans (id) ON DELETE SET NULL,
    product_name     TEXT NOT NULL,
    quantity         INTEGER NOT NULL CONSTRAINT order_items_quantity_check CHECK (quantity >= 1),
    unit_amount      BIGINT NOT NULL CONSTRAINT order_items_unit_amount_check CHECK (unit_amount >= 0)
);

CREATE INDEX order_items_order_id_idx ON order_items (order_id);

CREATE INDEX order_items_product_id_idx ON order_items (product_id);

CREATE INDEX order_items_pricing_plan_id_idx ON order_items (pricing_plan_id);

CREATE TABLE payment_customers (
    user_id               UUID NOT NULL
                          CONSTRAINT payment_customers_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    provider              TEXT NOT NULL CONSTRAINT payment_customers_provider_check CHECK (provider <> ''),
    provider_customer_id  TEXT NOT NULL,
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (user_id, provider)
);

CREATE UNIQUE INDEX payment_customers_provider_customer_id_key
    ON payment_customers (provider, provider_customer_id);

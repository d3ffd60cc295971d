-- 0015 shipping and fulfilment, SQLite half (the PostgreSQL half, 0015_shipping.postgres.sql, is
-- the same statements: ALTER TABLE ... ADD COLUMN with a CHECK is portable).
--
-- Design notes (docs/billing.md, "Shipping and fulfilment")
-- * checkout_sessions.collects_shipping: the checkout holds a physical product, so the payment
--   page (Stripe's, or the local test page) asks for a shipping address and phone.
-- * The address is a snapshot on the order (shipping_*), written once from the completed checkout
--   and never a link to something that can change later. shipping_state is what Stripe collects for
--   countries with states (AU); the local test page does not ask for it.
-- * carrier and tracking_number are set by staff when they mark the order shipped; shipped_at is
--   when they first did.

ALTER TABLE checkout_sessions ADD COLUMN collects_shipping BOOLEAN NOT NULL DEFAULT FALSE
    CONSTRAINT checkout_sessions_collects_shipping_check CHECK (collects_shipping IN (TRUE, FALSE));

ALTER TABLE orders ADD COLUMN shipping_name TEXT CONSTRAINT orders_shipping_name_check CHECK (length(shipping_name) <= 200);
ALTER TABLE orders ADD COLUMN shipping_line1 TEXT CONSTRAINT orders_shipping_line1_check CHECK (length(shipping_line1) <= 200);
ALTER TABLE orders ADD COLUMN shipping_line2 TEXT CONSTRAINT orders_shipping_line2_check CHECK (length(shipping_line2) <= 200);
ALTER TABLE orders ADD COLUMN shipping_city TEXT CONSTRAINT orders_shipping_city_check CHECK (length(shipping_city) <= 200);
ALTER TABLE orders ADD COLUMN shipping_state TEXT CONSTRAINT orders_shipping_state_check CHECK (length(shipping_state) <= 200);
ALTER TABLE orders ADD COLUMN shipping_postal_code TEXT
    CONSTRAINT orders_shipping_postal_code_check CHECK (length(shipping_postal_code) <= 20);
ALTER TABLE orders ADD COLUMN shipping_country TEXT
    CONSTRAINT orders_shipping_country_check CHECK (length(shipping_country) = 2);
ALTER TABLE orders ADD COLUMN shipping_phone TEXT CONSTRAINT orders_shipping_phone_check CHECK (length(shipping_phone) <= 40);
ALTER TABLE orders ADD COLUMN carrier TEXT CONSTRAINT orders_carrier_check CHECK (length(carrier) <= 100);
ALTER TABLE orders ADD COLUMN tracking_number TEXT CONSTRAINT orders_tracking_number_check CHECK (length(tracking_number) <= 100);
ALTER TABLE orders ADD COLUMN shipped_at TIMESTAMP WITH TIME ZONE;

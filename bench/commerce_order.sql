-- pgbench script for bench/commerce.py: the SQL of one order placement (CheckoutService::start,
-- server/src/billing/checkout_service.cpp) as ONE transaction with ONE commit. The server runs the
-- same statements as two write transactions (the four statements, then, after the payment
-- provider answers, the UPDATE) plus reads; commerce_order_as_server.sql has that shape.
-- Variables (-D): pid, nusers, users / emails (array literals, 1-based), q (quantity), unit (unit
-- price), name, success_prefix, cancel_prefix, pay_prefix (URL prefixes like the server's).
-- Ids, the order number and the provider session id are made in the database (gen_random_uuid,
-- random) rather than by the client; timestamps are now() where the server binds ISO text.
\set u random(1, :nusers)
\set n random(0, 1152921504606846975)
\set total :unit * :q
BEGIN;
UPDATE products SET stock_quantity = stock_quantity - :q, updated_at = now()
  WHERE id = :pid AND stock_quantity >= :q RETURNING stock_quantity \gset
INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, created_at, updated_at)
  VALUES (gen_random_uuid(), 'SC-' || upper(to_hex(:n::bigint)), (:users::uuid[])[:u], 'pending', :total, 'NZD',
          (:emails::text[])[:u], now(), now())
  ON CONFLICT (order_number) DO NOTHING
  RETURNING id AS order_id, gen_random_uuid() AS checkout_id, 'cs_local_' || md5(random()::text) AS session_id \gset
INSERT INTO order_items (id, order_id, product_id, pricing_plan_id, product_name, quantity, unit_amount)
  VALUES (gen_random_uuid(), :order_id, :pid, NULL, :name, :q, :unit);
INSERT INTO checkout_sessions (id, user_id, order_id, product_id, pricing_plan_id, mode, quantity, amount_total, currency,
                               provider, success_url, cancel_url, status, stock_reserved, stock_state, expires_at,
                               created_at, updated_at)
  VALUES (:checkout_id, (:users::uuid[])[:u], :order_id, :pid, NULL, 'payment', :q, :total, 'NZD', 'local',
          :success_prefix::text || :checkout_id::text, :cancel_prefix::text || :checkout_id::text, 'creating', :q,
          'reserved', now() + interval '1 day', now(), now());
UPDATE checkout_sessions SET provider_session_id = :session_id, url = :pay_prefix::text || :session_id::text,
  updated_at = now(), status = CASE WHEN status = 'creating' THEN 'open' ELSE status END
  WHERE id = :checkout_id;
COMMIT;

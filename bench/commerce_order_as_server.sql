-- pgbench script for bench/commerce.py (diagnostic, not a target): one order placement with the
-- SQL shape the server really has, i.e. commerce_order.sql plus the server's reads and its second
-- commit. In order: the Bearer token's session lookup (auth::Sessions::authenticate), the product by
-- slug and its pricing plans (ProductRepository::findActiveBySlug), the payment customer
-- (CheckoutService::customerFor), then transaction 1 (stock, order, item, checkout row) and
-- transaction 2 (link the provider session). Extra variables (-D): slug, sessions (array literal).
\set u random(1, :nusers)
\set n random(0, 1152921504606846975)
\set total :unit * :q
SELECT u.email, CAST(u.banned_until AS TEXT) AS banned_until,
       (SELECT COUNT(*) FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admins,
       (SELECT COUNT(*) FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS factors
  FROM auth_sessions s JOIN users u ON u.id = s.user_id
  WHERE s.id = (:sessions::uuid[])[:u] AND s.user_id = (:users::uuid[])[:u] AND u.deleted_at IS NULL;
SELECT CAST(id AS TEXT) AS id, slug, name, description, description_detail, meta_keywords, type, icon_url,
       picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
       price_nzd, billing_interval, CAST(created_at AS TEXT) AS created_at
  FROM products WHERE slug = :slug AND is_active = TRUE;
SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, name, price_amount, currency,
       billing_frequency_value, billing_frequency_unit, sort_order FROM pricing_plans
  WHERE product_id = :pid ORDER BY sort_order ASC, name ASC;
SELECT provider_customer_id FROM payment_customers WHERE user_id = (:users::uuid[])[:u] AND provider = 'local';
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
COMMIT;
BEGIN;
UPDATE checkout_sessions SET provider_session_id = :session_id, url = :pay_prefix::text || :session_id::text,
  updated_at = now(), status = CASE WHEN status = 'creating' THEN 'open' ELSE status END
  WHERE id = :checkout_id;
COMMIT;

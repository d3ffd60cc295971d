-- 0011 substring search, PostgreSQL half (the SQLite half is 0011_search.sqlite.sql; the runner
-- applies each only on its engine, docs/database.md "Engine-specific migrations").
--
-- Design notes
-- * The staff search boxes match a case-insensitive substring: LOWER(col) LIKE '%term%' ESCAPE.
--   No B-tree serves that. pg_trgm's GIN operator class does: it indexes every three-character
--   window of LOWER(col), the planner uses it for exactly the LIKE the repositories already run
--   (same expression), and rechecks each candidate row, so results are the LIKE's by
--   construction. Patterns with fewer than three characters between the wildcards extract no
--   trigram, and the planner scans instead.
-- * pg_trgm ships with Debian's postgresql-15 (the contrib modules are part of it) and is a
--   trusted extension since PostgreSQL 13: the database owner may create it, no superuser needed.
-- * One index per searched column (a search is an OR of LIKEs, which the planner answers with a
--   BitmapOr of these), not one over the columns joined together, which would also match text
--   across the join.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX worker_profiles_full_name_trgm_idx ON worker_profiles USING gin (lower(full_name) gin_trgm_ops);
CREATE INDEX worker_profiles_email_trgm_idx ON worker_profiles USING gin (lower(email) gin_trgm_ops);
CREATE INDEX worker_profiles_ewrb_licence_number_trgm_idx ON worker_profiles USING gin (lower(ewrb_licence_number) gin_trgm_ops);

CREATE INDEX certificates_certificate_number_trgm_idx ON certificates USING gin (lower(certificate_number) gin_trgm_ops);
CREATE INDEX certificates_site_location_trgm_idx ON certificates USING gin (lower(site_location) gin_trgm_ops);

-- The staff orders list: part of a customer's email.
CREATE INDEX orders_customer_email_trgm_idx ON orders USING gin (lower(customer_email) gin_trgm_ops);

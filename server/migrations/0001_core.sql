-- 0001 core: identity, catalogue, contact, mail outbox, rate limits.
--
-- Runs unchanged on SQLite 3.40 and PostgreSQL 15 (rules in docs/database.md): a semicolon ends a
-- statement only at the end of a line and appears nowhere else (comments included), no triggers,
-- no dialect-only syntax. Types: UUID ids (lower-case text made by the app), timestamps written by
-- the app as ISO-8601 UTC text with milliseconds (2026-11-23T09:26:51.000Z) so that SQLite's
-- text order is time order, BOOLEAN, BIGINT money in minor units, TEXT holding JSON for lists.
-- No DEFAULT on timestamps: CURRENT_TIMESTAMP is formatted differently by the two engines.
-- Timestamps are spelled TIMESTAMP WITH TIME ZONE, never TIMESTAMPTZ. PostgreSQL reads both as
-- timestamptz, but POCO 1.11's SQLite connector maps a result column's declared type through a
-- fixed table, knows TIMESTAMP (it reads the first word) and throws Poco::NotFoundException
-- ("Not found") on any SELECT that returns a TIMESTAMPTZ column.
--
-- Design notes
-- * Every PRIMARY KEY column is also NOT NULL: SQLite otherwise accepts NULL keys.
-- * Every BOOLEAN carries CHECK (col IN (TRUE, FALSE)). PostgreSQL enforces the type itself,
--   SQLite would otherwise store a stray 'true' string, which then reads back as truthy text.
-- * Constraints and indexes are named (<table>_<column>_check / _key / _idx / _fkey) so the data
--   layer can map a violation to a field on both engines: PostgreSQL reports the constraint name,
--   SQLite says "CHECK constraint failed: <name>" or "UNIQUE constraint failed: <table>.<col>".
-- * users is the auth identity (GoTrue-shaped: raw_app_meta_data / raw_user_meta_data hold JSON
--   text). Email uniqueness is case-insensitive through a unique index on lower(email). Email or
--   phone may be absent, not both. Soft deletion (deleted_at) must scrub email and phone, as
--   GoTrue does, so the address can sign up again.
-- * Roles are rows in user_roles, not a flag on users: the spec counts user_roles, grants are
--   audited (granted_at, granted_by), and new roles need no schema change.
-- * profiles is the public part of a user, one to one, deleted with the user.
-- * products.features is a JSON array of strings in TEXT. action_type is free text on purpose
--   (unknown values mean checkout, spec section 3). stock_quantity may be NULL (not tracked) but
--   never negative: reservations decrement it with a guarded UPDATE and must not go below zero.
-- * pricing_plans go with their product (ON DELETE CASCADE). Deleting a product that later
--   tables still reference (subscriptions, licences) is refused by their foreign keys.
-- * mail_outbox is the durable queue behind the mailer: claim a row by setting locked_until with
--   a guarded UPDATE (portable, safe with several servers), retry with next_attempt_at.
--   (kind, contact_submission_id) is unique so a contact form can never enqueue the same mail twice.
-- * rate_limit_counters is a fixed-window counter: INSERT ... ON CONFLICT (bucket, window_start)
--   DO UPDATE SET hits = rate_limit_counters.hits + 1 RETURNING hits. Qualify the column: an
--   unqualified `hits` there is ambiguous on PostgreSQL.

CREATE TABLE users (
    id                  UUID NOT NULL PRIMARY KEY,
    email               TEXT,
    encrypted_password  TEXT,
    email_confirmed_at  TIMESTAMP WITH TIME ZONE,
    phone               TEXT,
    phone_confirmed_at  TIMESTAMP WITH TIME ZONE,
    raw_app_meta_data   TEXT NOT NULL DEFAULT '{}',
    raw_user_meta_data  TEXT NOT NULL DEFAULT '{}',
    banned_until        TIMESTAMP WITH TIME ZONE,
    last_sign_in_at     TIMESTAMP WITH TIME ZONE,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    deleted_at          TIMESTAMP WITH TIME ZONE,
    CONSTRAINT users_email_check CHECK (email IS NULL OR (email <> '' AND length(email) <= 254)),
    CONSTRAINT users_phone_check CHECK (phone IS NULL OR phone <> ''),
    CONSTRAINT users_contact_check CHECK (email IS NOT NULL OR phone IS NOT NULL OR deleted_at IS NOT NULL)
);

CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE UNIQUE INDEX users_phone_key ON users (phone);

CREATE INDEX users_created_at_idx ON users (created_at);

CREATE TABLE profiles (
    id          UUID NOT NULL PRIMARY KEY
                CONSTRAINT profiles_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    email       TEXT,
    full_name   TEXT,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

-- "Select profiles id by email" (adding an enterprise member): case-insensitive, one match.
CREATE UNIQUE INDEX profiles_email_key ON profiles (lower(email));

CREATE TABLE user_roles (
    user_id     UUID NOT NULL
                CONSTRAINT user_roles_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    role        TEXT NOT NULL CONSTRAINT user_roles_role_check CHECK (role IN ('admin')),
    granted_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    granted_by  UUID CONSTRAINT user_roles_granted_by_fkey REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (user_id, role)
);

CREATE TABLE products (
    id                  UUID NOT NULL PRIMARY KEY,
    slug                TEXT NOT NULL,
    name                TEXT NOT NULL CONSTRAINT products_name_check CHECK (name <> ''),
    description         TEXT NOT NULL DEFAULT '',
    description_detail  TEXT,
    meta_keywords       TEXT,
    type                TEXT NOT NULL
                        CONSTRAINT products_type_check CHECK (type IN ('subscription', 'physical')),
    icon_url            TEXT NOT NULL DEFAULT '',
    picture_url         TEXT,
    stock_quantity      INTEGER
                        CONSTRAINT products_stock_quantity_check CHECK (stock_quantity >= 0),
    track_inventory     BOOLEAN NOT NULL DEFAULT FALSE
                        CONSTRAINT products_track_inventory_check CHECK (track_inventory IN (TRUE, FALSE)),
    is_active           BOOLEAN NOT NULL DEFAULT TRUE
                        CONSTRAINT products_is_active_check CHECK (is_active IN (TRUE, FALSE)),
    features            TEXT NOT NULL DEFAULT '[]'
                        CONSTRAINT products_features_check CHECK (features LIKE '[%]'),
    action_type         TEXT CONSTRAINT products_action_type_check CHECK (action_type <> ''),
    action_url          TEXT
                        CONSTRAINT products_action_url_check
                        CHECK (action_url LIKE 'https://%' OR action_url LIKE 'http://%'),
    show_pricing        BOOLEAN NOT NULL DEFAULT TRUE
                        CONSTRAINT products_show_pricing_check CHECK (show_pricing IN (TRUE, FALSE)),
    price_nzd           BIGINT NOT NULL DEFAULT 0
                        CONSTRAINT products_price_nzd_check CHECK (price_nzd >= 0),
    billing_interval    TEXT
                        CONSTRAINT products_billing_interval_check CHECK (billing_interval IN ('month', 'year')),
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    -- Slugs are URL path segments: lower case, no spaces (the admin form forces this too).
    CONSTRAINT products_slug_check CHECK (slug <> '' AND slug = lower(slug) AND slug NOT LIKE '% %')
);

CREATE UNIQUE INDEX products_slug_key ON products (slug);

-- Landing page: active products, oldest first. Admin list: all products, newest first.
CREATE INDEX products_is_active_created_at_idx ON products (is_active, created_at);

CREATE INDEX products_created_at_idx ON products (created_at);

CREATE TABLE pricing_plans (
    id                       UUID NOT NULL PRIMARY KEY,
    product_id               UUID NOT NULL
                             CONSTRAINT pricing_plans_product_id_fkey REFERENCES products (id) ON DELETE CASCADE,
    name                     TEXT NOT NULL CONSTRAINT pricing_plans_name_check CHECK (name <> ''),
    price_amount             BIGINT NOT NULL
                             CONSTRAINT pricing_plans_price_amount_check CHECK (price_amount >= 0),
    currency                 TEXT NOT NULL DEFAULT 'NZD'
                             CONSTRAINT pricing_plans_currency_check CHECK (currency IN ('NZD', 'AUD', 'USD')),
    billing_frequency_value  INTEGER NOT NULL DEFAULT 1
                             CONSTRAINT pricing_plans_billing_frequency_value_check
                             CHECK (billing_frequency_value IN (1, 3, 6, 12)),
    billing_frequency_unit   TEXT NOT NULL DEFAULT 'month'
                             CONSTRAINT pricing_plans_billing_frequency_unit_check
                             CHECK (billing_frequency_unit IN ('month', 'year')),
    sort_order               INTEGER NOT NULL DEFAULT 0,
    created_at               TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at               TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX pricing_plans_product_id_sort_order_idx ON pricing_plans (product_id, sort_order);

CREATE TABLE contact_submissions (
    id          UUID NOT NULL PRIMARY KEY,
    name        TEXT NOT NULL CONSTRAINT contact_submissions_name_check CHECK (length(name) BETWEEN 1 AND 200),
    email       TEXT NOT NULL CONSTRAINT contact_submissions_email_check CHECK (length(email) BETWEEN 3 AND 254),
    company     TEXT CONSTRAINT contact_submissions_company_check CHECK (length(company) <= 200),
    phone       TEXT CONSTRAINT contact_submissions_phone_check CHECK (length(phone) <= 50),
    message     TEXT NOT NULL
                CONSTRAINT contact_submissions_message_check CHECK (length(message) BETWEEN 1 AND 5000),
    client_ip   TEXT,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX contact_submissions_created_at_idx ON contact_submissions (created_at);

CREATE TABLE mail_outbox (
    id                     UUID NOT NULL PRIMARY KEY,
    kind                   TEXT NOT NULL CONSTRAINT mail_outbox_kind_check CHECK (kind <> ''),
    to_address             TEXT NOT NULL CONSTRAINT mail_outbox_to_address_check CHECK (to_address <> ''),
    reply_to               TEXT,
    subject                TEXT NOT NULL,
    body_text              TEXT NOT NULL,
    body_html              TEXT,
    status                 TEXT NOT NULL DEFAULT 'pending'
                           CONSTRAINT mail_outbox_status_check CHECK (status IN ('pending', 'sent', 'failed')),
    attempts               INTEGER NOT NULL DEFAULT 0
                           CONSTRAINT mail_outbox_attempts_check CHECK (attempts >= 0),
    next_attempt_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    locked_until           TIMESTAMP WITH TIME ZONE,
    last_error             TEXT,
    contact_submission_id  UUID
                           CONSTRAINT mail_outbox_contact_submission_id_fkey
                           REFERENCES contact_submissions (id) ON DELETE SET NULL,
    created_at             TIMESTAMP WITH TIME ZONE NOT NULL,
    sent_at                TIMESTAMP WITH TIME ZONE,
    CONSTRAINT mail_outbox_sent_at_check CHECK (status <> 'sent' OR sent_at IS NOT NULL)
);

-- The retry job: WHERE status = 'pending' AND next_attempt_at <= now ORDER BY next_attempt_at.
CREATE INDEX mail_outbox_status_next_attempt_at_idx ON mail_outbox (status, next_attempt_at);

-- The admin outbox list, newest first.
CREATE INDEX mail_outbox_created_at_idx ON mail_outbox (created_at);

CREATE UNIQUE INDEX mail_outbox_kind_contact_submission_id_key ON mail_outbox (kind, contact_submission_id);

CREATE TABLE rate_limit_counters (
    bucket        TEXT NOT NULL,
    window_start  BIGINT NOT NULL,
    hits          INTEGER NOT NULL DEFAULT 0 CONSTRAINT rate_limit_counters_hits_check CHECK (hits >= 0),
    PRIMARY KEY (bucket, window_start)
);

-- Purging expired windows: DELETE ... WHERE window_start < :oldest_window
CREATE INDEX rate_limit_counters_window_start_idx ON rate_limit_counters (window_start);

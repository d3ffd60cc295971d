-- 0004 companion tool (WireWrite): worker profiles, certificates, promo codes, redemptions.
--
-- Same portability rules as 0001 (see docs/database.md).
--
-- Design notes
-- * worker_profiles.user_id links a worker to a storefront identity when there is one (nullable,
--   unique: one profile per user). Deleting the user deletes the worker and, through it, the
--   worker's certificates and redemptions: account deletion (including the 90-day inactivity
--   deletion) removes the person's data rather than leaving orphans.
-- * entitlement is free or pro. pro_expires_at NULL on a pro worker means lifetime. A free worker
--   has no expiry (CHECK), matching the admin upgrade and downgrade, which both clear it.
-- * ewrb_licence_number is not unique on purpose: a unique index would let anyone who types a
--   licence number first lock its real holder out. It is checked against the register, not here.
-- * certificates: a draft may lack a number, an issued certificate must have a number and
--   issued_at, and a draft must not have issued_at (CHECK). Numbers are unique across the system.
-- * promo_codes.code is stored upper case (CHECK code = upper(code), the form forces it) and is
--   unique. entitlement is always 'pro'. NULL duration_months means lifetime, NULL max_uses means
--   unlimited, NULL expires_at means the code never expires (the code, not the Pro access).
--   uses_count <= max_uses is a CHECK: redeem with
--   UPDATE promo_codes SET uses_count = uses_count + 1 WHERE id = :id AND active = TRUE
--   AND (max_uses IS NULL OR uses_count < max_uses) and test the affected row count, then insert
--   the redemption. A worker redeems a code at most once (unique code + worker).
-- * Promo codes are deactivated, never deleted, while redemptions point at them (RESTRICT).

CREATE TABLE worker_profiles (
    id                   UUID NOT NULL PRIMARY KEY,
    user_id              UUID
                         CONSTRAINT worker_profiles_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    full_name            TEXT,
    email                TEXT,
    ewrb_licence_number  TEXT,
    entitlement          TEXT NOT NULL DEFAULT 'free'
                         CONSTRAINT worker_profiles_entitlement_check CHECK (entitlement IN ('free', 'pro')),
    pro_expires_at       TIMESTAMP WITH TIME ZONE,
    last_active_at       TIMESTAMP WITH TIME ZONE,
    created_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT worker_profiles_pro_expires_at_check CHECK (entitlement = 'pro' OR pro_expires_at IS NULL)
);

CREATE UNIQUE INDEX worker_profiles_user_id_key ON worker_profiles (user_id);

-- Admin users list, newest first (the default sort).
CREATE INDEX worker_profiles_created_at_idx ON worker_profiles (created_at);

-- Counts by tier on the companion dashboard.
CREATE INDEX worker_profiles_entitlement_idx ON worker_profiles (entitlement);

-- Inactive accounts (75+ days) and the 90-day inactivity deletion.
CREATE INDEX worker_profiles_last_active_at_idx ON worker_profiles (last_active_at);

CREATE TABLE certificates (
    id                  UUID NOT NULL PRIMARY KEY,
    worker_id           UUID NOT NULL
                        CONSTRAINT certificates_worker_id_fkey REFERENCES worker_profiles (id) ON DELETE CASCADE,
    certificate_number  TEXT CONSTRAINT certificates_certificate_number_check CHECK (certificate_number <> ''),
    site_location       TEXT,
    status              TEXT NOT NULL DEFAULT 'draft'
                        CONSTRAINT certificates_status_check CHECK (status IN ('draft', 'issued')),
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    issued_at           TIMESTAMP WITH TIME ZONE,
    CONSTRAINT certificates_issued_check CHECK (
        (status = 'draft' AND issued_at IS NULL)
        OR (status = 'issued' AND issued_at IS NOT NULL AND certificate_number IS NOT NULL)
    )
);

CREATE UNIQUE INDEX certificates_certificate_number_key ON certificates (certificate_number);

-- A worker's certificates and the per-worker certificate counts.
CREATE INDEX certificates_worker_id_idx ON certificates (worker_id);

-- Admin list, newest first.
CREATE INDEX certificates_created_at_idx ON certificates (created_at);

CREATE TABLE promo_codes (
    id               UUID NOT NULL PRIMARY KEY,
    code             TEXT NOT NULL,
    description      TEXT NOT NULL,
    entitlement      TEXT NOT NULL DEFAULT 'pro'
                     CONSTRAINT promo_codes_entitlement_check CHECK (entitlement = 'pro'),
    duration_months  INTEGER CONSTRAINT promo_codes_duration_months_check CHECK (duration_months >= 1),
    max_uses         INTEGER CONSTRAINT promo_codes_max_uses_check CHECK (max_uses >= 1),
    uses_count       INTEGER NOT NULL DEFAULT 0,
    expires_at       TIMESTAMP WITH TIME ZONE,
    active           BOOLEAN NOT NULL DEFAULT TRUE
                     CONSTRAINT promo_codes_active_check CHECK (active IN (TRUE, FALSE)),
    created_by       UUID CONSTRAINT promo_codes_created_by_fkey REFERENCES users (id) ON DELETE SET NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT promo_codes_code_check CHECK (code <> '' AND code = upper(code) AND code NOT LIKE '% %'),
    CONSTRAINT promo_codes_uses_count_check CHECK (uses_count >= 0 AND (max_uses IS NULL OR uses_count <= max_uses))
);

CREATE UNIQUE INDEX promo_codes_code_key ON promo_codes (code);

-- Admin list, newest first.
CREATE INDEX promo_codes_created_at_idx ON promo_codes (created_at);

CREATE TABLE promo_code_redemptions (
    id             UUID NOT NULL PRIMARY KEY,
    promo_code_id  UUID NOT NULL
                   CONSTRAINT promo_code_redemptions_promo_code_id_fkey
                   REFERENCES promo_codes (id) ON DELETE RESTRICT,
    worker_id      UUID NOT NULL
                   CONSTRAINT promo_code_redemptions_worker_id_fkey
                   REFERENCES worker_profiles (id) ON DELETE CASCADE,
    redeemed_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX promo_code_redemptions_code_worker_key
    ON promo_code_redemptions (promo_code_id, worker_id);

CREATE INDEX promo_code_redemptions_worker_id_idx ON promo_code_redemptions (worker_id);

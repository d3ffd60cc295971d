-- 0005 auth: sessions, refresh tokens, one-time links, TOTP factors and challenges, signing keys,
-- the audit log.
--
-- Same portability rules as 0001 (see docs/database.md).
--
-- Design notes
-- * Secrets are never stored as given. Refresh tokens and one-time link tokens are stored as the
--   SHA-256 of the token (hex): they carry at least 128 random bits, so a fast hash is enough, and a
--   copy of the database cannot be replayed. Passwords are argon2id strings in users.
-- * A refresh token, once rotated, keeps its child sealed under a key derived from itself
--   (child_sealed, libsodium secretbox). Only a client holding the parent can open it: that is how a
--   replayed parent gets the active token back without the database ever holding a usable token.
-- * auth_sessions.aal is the session's level (aal1 after a password, aal2 after TOTP), amr is the
--   JSON list of methods with their times, as GoTrue puts in the JWT. Deleting a session deletes
--   its refresh tokens and challenges, and every access token naming it stops working at once
--   (each request checks the session row).
-- * mfa_factors.last_used_step is the highest TOTP time step accepted, so a code works once even
--   when sent twice in parallel: acceptance is a guarded UPDATE ... WHERE last_used_step < step.
--   The TOTP secret is stored as text (it must be read to check codes).
-- * mfa_challenges.attempts counts wrong codes, a challenge is spent after a success or too many.
-- * auth_signing_keys keeps the ES256 key pairs (PEM) so tokens stay valid across restarts and
--   every server signs with the same key. The newest active key signs, all active keys verify.
-- * auth_audit_log never holds a secret: events, user, client address, and a small JSON detail.

ALTER TABLE users ADD COLUMN confirmation_sent_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE users ADD COLUMN recovery_sent_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE users ADD COLUMN invited_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE users ADD COLUMN email_change TEXT;
ALTER TABLE users ADD COLUMN email_change_sent_at TIMESTAMP WITH TIME ZONE;

CREATE TABLE auth_sessions (
    id            UUID NOT NULL PRIMARY KEY,
    user_id       UUID NOT NULL
                  CONSTRAINT auth_sessions_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    aal           TEXT NOT NULL CONSTRAINT auth_sessions_aal_check CHECK (aal IN ('aal1', 'aal2')),
    amr           TEXT NOT NULL DEFAULT '[]',
    factor_id     UUID,
    user_agent    TEXT,
    ip            TEXT,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    refreshed_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX auth_sessions_user_id_idx ON auth_sessions (user_id);

CREATE TABLE auth_refresh_tokens (
    id            UUID NOT NULL PRIMARY KEY,
    session_id    UUID NOT NULL
                  CONSTRAINT auth_refresh_tokens_session_id_fkey REFERENCES auth_sessions (id) ON DELETE CASCADE,
    token_hash    TEXT NOT NULL,
    parent_hash   TEXT,
    revoked       BOOLEAN NOT NULL DEFAULT FALSE
                  CONSTRAINT auth_refresh_tokens_revoked_check CHECK (revoked IN (TRUE, FALSE)),
    child_sealed  TEXT,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX auth_refresh_tokens_token_hash_key ON auth_refresh_tokens (token_hash);
CREATE INDEX auth_refresh_tokens_session_id_idx ON auth_refresh_tokens (session_id);
CREATE INDEX auth_refresh_tokens_parent_hash_idx ON auth_refresh_tokens (parent_hash);

CREATE TABLE auth_one_time_tokens (
    id            UUID NOT NULL PRIMARY KEY,
    user_id       UUID NOT NULL
                  CONSTRAINT auth_one_time_tokens_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    token_type    TEXT NOT NULL
                  CONSTRAINT auth_one_time_tokens_token_type_check
                  CHECK (token_type IN ('signup', 'recovery', 'invite', 'email_change')),
    token_hash    TEXT NOT NULL,
    relates_to    TEXT NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    used_at       TIMESTAMP WITH TIME ZONE
);

CREATE UNIQUE INDEX auth_one_time_tokens_token_hash_key ON auth_one_time_tokens (token_hash);
CREATE INDEX auth_one_time_tokens_user_id_idx ON auth_one_time_tokens (user_id);

CREATE TABLE mfa_factors (
    id              UUID NOT NULL PRIMARY KEY,
    user_id         UUID NOT NULL
                    CONSTRAINT mfa_factors_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    friendly_name   TEXT,
    factor_type     TEXT NOT NULL CONSTRAINT mfa_factors_factor_type_check CHECK (factor_type IN ('totp')),
    status          TEXT NOT NULL CONSTRAINT mfa_factors_status_check CHECK (status IN ('unverified', 'verified')),
    secret          TEXT NOT NULL,
    last_used_step  BIGINT NOT NULL DEFAULT 0,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX mfa_factors_user_id_idx ON mfa_factors (user_id);

CREATE TABLE mfa_challenges (
    id           UUID NOT NULL PRIMARY KEY,
    factor_id    UUID NOT NULL
                 CONSTRAINT mfa_challenges_factor_id_fkey REFERENCES mfa_factors (id) ON DELETE CASCADE,
    session_id   UUID NOT NULL
                 CONSTRAINT mfa_challenges_session_id_fkey REFERENCES auth_sessions (id) ON DELETE CASCADE,
    ip           TEXT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    verified_at  TIMESTAMP WITH TIME ZONE
);

CREATE INDEX mfa_challenges_factor_id_idx ON mfa_challenges (factor_id);

CREATE TABLE auth_signing_keys (
    kid          TEXT NOT NULL PRIMARY KEY,
    private_pem  TEXT NOT NULL,
    public_pem   TEXT NOT NULL,
    active       BOOLEAN NOT NULL DEFAULT TRUE
                 CONSTRAINT auth_signing_keys_active_check CHECK (active IN (TRUE, FALSE)),
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE auth_audit_log (
    id          UUID NOT NULL PRIMARY KEY,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    event       TEXT NOT NULL,
    user_id     UUID,
    actor_id    UUID,
    ip          TEXT,
    detail      TEXT NOT NULL DEFAULT '{}'
);

CREATE INDEX auth_audit_log_created_at_idx ON auth_audit_log (created_at);
CREATE INDEX auth_audit_log_user_id_idx ON auth_audit_log (user_id);

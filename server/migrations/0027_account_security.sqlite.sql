-- 0027 account security II, SQLite half (the PostgreSQL half, 0027_account_security.postgres.sql,
-- has the design notes).
-- * SQLite cannot alter a CHECK constraint: as in 0016, 0020 and 0024, the constraint's text is
--   edited in sqlite_schema (no stored row holds the new value yet) and writable_schema=RESET
--   reloads the schema; the table made and dropped bumps the schema cookie for other connections.

CREATE TABLE mfa_wrong_codes (
    id          UUID NOT NULL PRIMARY KEY,
    user_id     UUID NOT NULL
                CONSTRAINT mfa_wrong_codes_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    method      TEXT NOT NULL
                CONSTRAINT mfa_wrong_codes_method_check CHECK (method IN ('totp', 'recovery_code')),
    failed_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX mfa_wrong_codes_user_id_failed_at_idx ON mfa_wrong_codes (user_id, failed_at);

PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(sql, '''invite'', ''email_change'')', '''invite'', ''email_change'', ''magiclink'')')
WHERE type = 'table' AND name = 'auth_one_time_tokens';

PRAGMA writable_schema = RESET;

CREATE TABLE schema_cookie_0027 (x INTEGER);

DROP TABLE schema_cookie_0027;

-- 0022 two-factor recovery codes (docs/auth.md, "Recovery codes").
--
-- Design notes
-- * A user has at most one set of ten codes: generating a new set deletes the old rows in the
--   same transaction, so an old code stops working the moment the new set is shown.
-- * Only a SHA-256 of the normalised code is stored (code_hash): a code is 50 random bits, so a
--   slow hash would add nothing but cost at every sign-in step.
-- * used_at is set by a guarded UPDATE (... AND used_at IS NULL), so a code works once even when
--   two requests race; the unique index serves that look-up.
-- * Removing the last two-factor factor, a staff reset and closing the account delete the rows;
--   deleting the user cascades.

CREATE TABLE mfa_recovery_codes (
    id          UUID NOT NULL PRIMARY KEY,
    user_id     UUID NOT NULL
                CONSTRAINT mfa_recovery_codes_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    code_hash   TEXT NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    used_at     TIMESTAMP WITH TIME ZONE
);

CREATE UNIQUE INDEX mfa_recovery_codes_user_id_code_hash_key ON mfa_recovery_codes (user_id, code_hash);

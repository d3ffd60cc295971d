-- 0027 account security II, PostgreSQL half (the SQLite half, 0027_account_security.sqlite.sql,
-- makes the same table and widens the check its own way). docs/auth.md, "Two-factor guessing" and
-- "Links end with the old access".
--
-- Design notes
-- * mfa_wrong_codes: one row per wrong code of a verified factor (a TOTP code or a recovery code,
--   at the sign-in step, removing a factor or confirming a sensitive action), whichever challenge,
--   session or server it came through: a per-challenge count alone lets a session that knows the
--   password open challenge after challenge. STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT of them within
--   STOREFRONT_AUTH_MFA_ACCOUNT_WINDOW_SECONDS close the account's second factor (429) until the
--   oldest of them leaves the window. The check and the insert run in one write that holds the
--   users row (FOR UPDATE; SQLite has one writer), so parallel guesses cannot all pass the check.
--   The index serves the count in the window; rows older than a day are pruned with the challenges.
-- * auth_one_time_tokens takes magic links (generate_link type magiclink, as GoTrue's), which a
--   password change, signing out everywhere and a staff reset of two-factor void with the account's
--   recovery and email-change links.

CREATE TABLE mfa_wrong_codes (
    id          UUID NOT NULL PRIMARY KEY,
    user_id     UUID NOT NULL
                CONSTRAINT mfa_wrong_codes_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    method      TEXT NOT NULL
                CONSTRAINT mfa_wrong_codes_method_check CHECK (method IN ('totp', 'recovery_code')),
    failed_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX mfa_wrong_codes_user_id_failed_at_idx ON mfa_wrong_codes (user_id, failed_at);

ALTER TABLE auth_one_time_tokens DROP CONSTRAINT auth_one_time_tokens_token_type_check;
ALTER TABLE auth_one_time_tokens ADD CONSTRAINT auth_one_time_tokens_token_type_check
    CHECK (token_type IN ('signup', 'recovery', 'invite', 'email_change', 'magiclink'));

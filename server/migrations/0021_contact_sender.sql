-- 0021 a Contact Sales message belongs to an account only through its signed-in sender
-- (docs/privacy.md, "Download my data").
--
-- Design notes
-- * user_id is set when the sender was signed in; a message posted without a session belongs to
--   no account, whatever address it gives. Matching by address let a stranger plant a message in
--   a customer's data export, and let a new account at a closed account's address read the old
--   one's messages.
-- * Messages received before this have no sender and stay out of every export: the address typed
--   into the form never proved who sent them.
-- * ON DELETE SET NULL: closed accounts are kept as tombstones; a deleted users row unlinks.
-- * The export reads by user_id (the partial index); the lower(email) index of 0018 served the
--   old match and goes.

ALTER TABLE contact_submissions ADD COLUMN user_id UUID
    CONSTRAINT contact_submissions_user_id_fkey REFERENCES users (id) ON DELETE SET NULL;

CREATE INDEX contact_submissions_user_id_idx ON contact_submissions (user_id) WHERE user_id IS NOT NULL;

DROP INDEX contact_submissions_lower_email_idx;

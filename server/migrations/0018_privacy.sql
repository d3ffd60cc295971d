-- 0018 privacy: "Download my data" reads the contact messages sent from the user's address
-- (docs/privacy.md). Same portability rules as 0001 (see docs/database.md).
--
-- Design notes
-- * Addresses are stored as typed on the contact form, so the look-up is case-insensitive:
--   WHERE lower(email) = :normalised address, served by an index on the expression.
-- * A closed account is a users row with deleted_at set and no email, phone or password (the
--   tombstone keeps the id the kept orders, invoices and audit entries point at); no schema change
--   is needed for it.

CREATE INDEX contact_submissions_lower_email_idx ON contact_submissions (lower(email));

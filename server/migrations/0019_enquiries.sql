-- 0019 the staff's "Handled" mark on contact enquiries (docs/backoffice.md, "Enquiries").
--
-- Design notes
-- * handled_at and handled_by are both set when staff mark an enquiry handled, both cleared when
--   they take the mark off (the audit log keeps who did what and when, each time).
-- * handled_by keeps the row when the staff member's account goes (closed accounts are kept as
--   tombstones; a deleted row sets it NULL).
-- * The list's "not handled" filter reads newest first from the partial index; "handled" and the
--   unfiltered list read contact_submissions_created_at_idx.

ALTER TABLE contact_submissions ADD COLUMN handled_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE contact_submissions ADD COLUMN handled_by UUID
    CONSTRAINT contact_submissions_handled_by_fkey REFERENCES users (id) ON DELETE SET NULL;

CREATE INDEX contact_submissions_unhandled_created_at_idx ON contact_submissions (created_at) WHERE handled_at IS NULL;

-- 0009 enterprise admin: which member holds which licence seat.
--
-- Same portability rules as 0001 (see docs/database.md).
--
-- Design notes
-- * A seat is one member holding one licence (one product of one account). used_count on
--   enterprise_licenses is the number of its seat rows: the service changes both in the same
--   transaction, under the lock on the account row that 0003 describes (UPDATE enterprise_accounts
--   SET updated_at ...), and takes a seat with the guarded
--   UPDATE enterprise_licenses SET used_count = used_count + 1 WHERE id = :id AND used_count < quantity.
-- * Deleting a licence deletes its seats (its used_count goes with it). Deleting a member who
--   holds a seat is RESTRICTed: the enterprise service frees the seats first (and lowers
--   used_count), so nothing else, such as a cascade from deleting the user, can make used_count
--   drift from the seats. A user holding a seat is removed from the team before the user is deleted.
-- * A member without a seat of a product (every seat taken) has no access to that product; seats
--   freed or added later go to such members, the longest-standing first.

CREATE TABLE enterprise_license_seats (
    license_id   UUID NOT NULL
                 CONSTRAINT enterprise_license_seats_license_id_fkey
                 REFERENCES enterprise_licenses (id) ON DELETE CASCADE,
    member_id    UUID NOT NULL
                 CONSTRAINT enterprise_license_seats_member_id_fkey
                 REFERENCES enterprise_members (id) ON DELETE RESTRICT,
    assigned_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT enterprise_license_seats_pkey PRIMARY KEY (license_id, member_id)
);

-- "Which seats does this member hold" (access checks, removing a member).
CREATE INDEX enterprise_license_seats_member_id_idx ON enterprise_license_seats (member_id);

-- Members of an account in the order seats are handed out (added_at, id).
CREATE INDEX enterprise_members_account_added_at_idx ON enterprise_members (enterprise_account_id, added_at);

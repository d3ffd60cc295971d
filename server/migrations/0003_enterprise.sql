-- 0003 enterprise: accounts, members, licences.
--
-- Same portability rules as 0001 (see docs/database.md).
--
-- Design notes
-- * ONE membership table. The spec shows two names for the same fact, enterprise_members (the
--   enterprise admin's team screen: id, role, added_by, added_at) and enterprise_users (the staff
--   admin view: user_id, role, created_at). Two tables would drift apart, so enterprise_users is
--   served from enterprise_members (its created_at is added_at).
-- * A user is in an account at most once (unique account + user). role is 'admin' or 'member'
--   (new members get 'member'). The account owner is enterprise_accounts.admin_user_id, and the
--   service also records the owner as an 'admin' member when it creates the account.
-- * The licence limit (members < max_licenses) spans rows, so no CHECK can hold it. The service
--   adds a member inside one transaction that first touches the account row
--   (UPDATE enterprise_accounts SET updated_at = :now WHERE id = :account_id), which serialises
--   concurrent adds on PostgreSQL (row lock) and SQLite (single writer), then counts, then inserts.
-- * enterprise_licenses.used_count <= quantity is a CHECK: allocate a seat with
--   UPDATE ... SET used_count = used_count + 1 WHERE id = :id AND used_count < quantity and test the
--   affected row count. Lowering quantity below the seats in use is refused until seats are freed.
-- * Deleting an account deletes its members and licences. Deleting the owner's user is refused
--   (RESTRICT): transfer or delete the account first. A licensed product cannot be deleted.

CREATE TABLE enterprise_accounts (
    id             UUID NOT NULL PRIMARY KEY,
    admin_user_id  UUID NOT NULL
                   CONSTRAINT enterprise_accounts_admin_user_id_fkey REFERENCES users (id) ON DELETE RESTRICT,
    company_name   TEXT NOT NULL CONSTRAINT enterprise_accounts_company_name_check CHECK (company_name <> ''),
    billing_email  TEXT NOT NULL CONSTRAINT enterprise_accounts_billing_email_check CHECK (billing_email <> ''),
    max_licenses   INTEGER NOT NULL DEFAULT 5
                   CONSTRAINT enterprise_accounts_max_licenses_check CHECK (max_licenses >= 0),
    is_active      BOOLEAN NOT NULL DEFAULT TRUE
                   CONSTRAINT enterprise_accounts_is_active_check CHECK (is_active IN (TRUE, FALSE)),
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at     TIMESTAMP WITH TIME ZONE NOT NULL
);

-- "Select enterprise_accounts where admin_user_id is the user".
CREATE INDEX enterprise_accounts_admin_user_id_idx ON enterprise_accounts (admin_user_id);

-- Admin list, newest first.
CREATE INDEX enterprise_accounts_created_at_idx ON enterprise_accounts (created_at);

CREATE TABLE enterprise_members (
    id                     UUID NOT NULL PRIMARY KEY,
    enterprise_account_id  UUID NOT NULL
                           CONSTRAINT enterprise_members_enterprise_account_id_fkey
                           REFERENCES enterprise_accounts (id) ON DELETE CASCADE,
    user_id                UUID NOT NULL
                           CONSTRAINT enterprise_members_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
    role                   TEXT NOT NULL DEFAULT 'member'
                           CONSTRAINT enterprise_members_role_check CHECK (role IN ('admin', 'member')),
    added_by               UUID
                           CONSTRAINT enterprise_members_added_by_fkey REFERENCES users (id) ON DELETE SET NULL,
    added_at               TIMESTAMP WITH TIME ZONE NOT NULL
);

-- One membership per user and account. Also serves "members of an account" (leading column).
CREATE UNIQUE INDEX enterprise_members_account_user_key
    ON enterprise_members (enterprise_account_id, user_id);

-- "Which accounts is this user in", and the foreign key from users.
CREATE INDEX enterprise_members_user_id_idx ON enterprise_members (user_id);

CREATE INDEX enterprise_members_added_by_idx ON enterprise_members (added_by);

CREATE TABLE enterprise_licenses (
    id                     UUID NOT NULL PRIMARY KEY,
    enterprise_account_id  UUID NOT NULL
                           CONSTRAINT enterprise_licenses_enterprise_account_id_fkey
                           REFERENCES enterprise_accounts (id) ON DELETE CASCADE,
    product_id             UUID NOT NULL
                           CONSTRAINT enterprise_licenses_product_id_fkey REFERENCES products (id) ON DELETE RESTRICT,
    quantity               INTEGER NOT NULL
                           CONSTRAINT enterprise_licenses_quantity_check CHECK (quantity >= 0),
    used_count             INTEGER NOT NULL DEFAULT 0,
    created_at             TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at             TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT enterprise_licenses_used_count_check CHECK (used_count >= 0 AND used_count <= quantity)
);

CREATE UNIQUE INDEX enterprise_licenses_account_product_key
    ON enterprise_licenses (enterprise_account_id, product_id);

CREATE INDEX enterprise_licenses_product_id_idx ON enterprise_licenses (product_id);

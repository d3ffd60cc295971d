-- 0012 maintained counts for the WireWrite staff headings and stats cards, SQLite half (the
-- PostgreSQL half is 0012_counts.postgres.sql; docs/database.md "Engine-specific migrations").
--
-- Design notes
-- * The certificates and users headings ('N total certificates (X draft, Y issued)', 'N total
--   users (X free, Y pro)') and the dashboard cards counted a million certificates on every
--   request (35 ms SQLite, 137 ms PostgreSQL). companion_counts is one row (id 1) holding those
--   numbers, read in one lookup.
-- * Triggers keep it exact in the transaction of every change, whatever path makes it: inserts,
--   a certificate's issue (status draft -> issued), a worker's entitlement change, deletes, and
--   deletes cascaded by foreign keys (a user's deletion, the inactivity job's deletion of a
--   worker and their certificates): SQLite fires triggers for cascaded deletes.
-- * Inactive accounts (75+ days) depend on the clock, not on a write: they stay an index range
--   count over worker_profiles_last_active_at_idx.
-- * The counts start from the rows already there (this migration runs in one transaction).
-- * (x = 'free') is 0 or 1 in SQLite; the PostgreSQL half spells the same arithmetic its way.

CREATE TABLE companion_counts (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    workers_free         BIGINT NOT NULL,
    workers_pro          BIGINT NOT NULL,
    certificates_draft   BIGINT NOT NULL,
    certificates_issued  BIGINT NOT NULL
);

INSERT INTO companion_counts (id, workers_free, workers_pro, certificates_draft, certificates_issued)
SELECT 1,
       (SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'free'),
       (SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'pro'),
       (SELECT COUNT(*) FROM certificates WHERE status = 'draft'),
       (SELECT COUNT(*) FROM certificates WHERE status = 'issued');

CREATE TRIGGER companion_counts_worker_insert AFTER INSERT ON worker_profiles BEGIN
UPDATE companion_counts SET workers_free = workers_free + (new.entitlement = 'free'),
    workers_pro = workers_pro + (new.entitlement = 'pro') WHERE id = 1;
END;

CREATE TRIGGER companion_counts_worker_delete AFTER DELETE ON worker_profiles BEGIN
UPDATE companion_counts SET workers_free = workers_free - (old.entitlement = 'free'),
    workers_pro = workers_pro - (old.entitlement = 'pro') WHERE id = 1;
END;

CREATE TRIGGER companion_counts_worker_update AFTER UPDATE OF entitlement ON worker_profiles
WHEN old.entitlement <> new.entitlement BEGIN
UPDATE companion_counts SET workers_free = workers_free + (new.entitlement = 'free') - (old.entitlement = 'free'),
    workers_pro = workers_pro + (new.entitlement = 'pro') - (old.entitlement = 'pro') WHERE id = 1;
END;

CREATE TRIGGER companion_counts_certificate_insert AFTER INSERT ON certificates BEGIN
UPDATE companion_counts SET certificates_draft = certificates_draft + (new.status = 'draft'),
    certificates_issued = certificates_issued + (new.status = 'issued') WHERE id = 1;
END;

CREATE TRIGGER companion_counts_certificate_delete AFTER DELETE ON certificates BEGIN
UPDATE companion_counts SET certificates_draft = certificates_draft - (old.status = 'draft'),
    certificates_issued = certificates_issued - (old.status = 'issued') WHERE id = 1;
END;

CREATE TRIGGER companion_counts_certificate_update AFTER UPDATE OF status ON certificates
WHEN old.status <> new.status BEGIN
UPDATE companion_counts SET certificates_draft = certificates_draft + (new.status = 'draft') - (old.status = 'draft'),
    certificates_issued = certificates_issued + (new.status = 'issued') - (old.status = 'issued') WHERE id = 1;
END;

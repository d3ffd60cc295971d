-- 0010 companion tool (WireWrite): what the API, the staff lists and the inactivity job need on top
-- of 0004 (docs/wirewrite.md).
--
-- Design notes
-- * worker_profiles.inactivity_warned_at: when the inactivity job sent the one warning email
--   (75 days without activity). Cleared by the next activity, so a worker who comes back and goes
--   quiet again is warned again. The job deletes a free worker 90 days after their last activity
--   and never sooner than 15 days after the warning.
-- * certificate_number_counters: one row per year, bumped by a single upsert with RETURNING, so
--   two servers issuing at once never hand out the same WW-YYYY-NNNNNN number.
-- * job_leases: a named lease with an expiry, how servers sharing one SQLite file agree that only
--   one of them runs a job (PostgreSQL uses an advisory lock instead). An expired lease is free.
-- * Indexes for every sort and filter of the staff lists, each ending with id, the tie-breaker
--   that keeps page order stable on both engines.

ALTER TABLE worker_profiles ADD COLUMN inactivity_warned_at TIMESTAMP WITH TIME ZONE;

CREATE TABLE certificate_number_counters (
    number_year  INTEGER NOT NULL PRIMARY KEY,
    last_value   INTEGER NOT NULL CONSTRAINT certificate_number_counters_last_value_check CHECK (last_value >= 1)
);

CREATE TABLE job_leases (
    name        TEXT NOT NULL PRIMARY KEY,
    holder      TEXT NOT NULL,
    expires_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Staff users list: sort by name, tier or joined; filter by tier.
CREATE INDEX worker_profiles_full_name_id_idx ON worker_profiles (full_name, id);
CREATE INDEX worker_profiles_entitlement_id_idx ON worker_profiles (entitlement, id);
CREATE INDEX worker_profiles_created_at_id_idx ON worker_profiles (created_at, id);
CREATE INDEX worker_profiles_entitlement_created_at_idx ON worker_profiles (entitlement, created_at, id);

-- The inactivity job: workers warned, by when.
CREATE INDEX worker_profiles_inactivity_warned_at_idx ON worker_profiles (inactivity_warned_at);

-- Staff certificates list: sort by number, status or created; filter by status.
CREATE INDEX certificates_created_at_id_idx ON certificates (created_at, id);
CREATE INDEX certificates_status_id_idx ON certificates (status, id);
CREATE INDEX certificates_status_created_at_idx ON certificates (status, created_at, id);
CREATE INDEX certificates_certificate_number_id_idx ON certificates (certificate_number, id);

-- A worker's own certificates, newest first.
CREATE INDEX certificates_worker_id_created_at_idx ON certificates (worker_id, created_at, id);

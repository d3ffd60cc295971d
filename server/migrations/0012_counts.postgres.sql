-- 0012 maintained counts for the WireWrite staff headings and stats cards, PostgreSQL half (the
-- SQLite half, 0012_counts.sqlite.sql, has the design notes; the table is the same).
--
-- * Statement-level triggers with transition tables: one UPDATE of the counts row per statement,
--   however many rows it touched (a COPY of a million certificates is one update, where a row
--   trigger would update the one row a million times in one transaction). They fire for deletes
--   cascaded by foreign keys too.
-- * PostgreSQL allows no column list on a trigger with transition tables, so the UPDATE triggers
--   fire on every update of the table (a worker's last_active_at, a draft's site); they write the
--   counts row only when a count changed, so those updates never wait on it.
-- * Lock order: the counts row is always the last row a transaction locks (after the worker's and
--   the certificates' rows it changes), so it adds waiting but no deadlock.
-- * The migration runner keeps a dollar-quoted body ($$ ... $$) in one statement.

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

CREATE FUNCTION companion_counts_workers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    free_delta BIGINT := 0;
    pro_delta BIGINT := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT free_delta + COUNT(*) FILTER (WHERE entitlement = 'free'), pro_delta + COUNT(*) FILTER (WHERE entitlement = 'pro')
        INTO free_delta, pro_delta FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT free_delta - COUNT(*) FILTER (WHERE entitlement = 'free'), pro_delta - COUNT(*) FILTER (WHERE entitlement = 'pro')
        INTO free_delta, pro_delta FROM old_rows;
    END IF;
    IF free_delta <> 0 OR pro_delta <> 0 THEN
        UPDATE companion_counts SET workers_free = workers_free + free_delta, workers_pro = workers_pro + pro_delta
        WHERE id = 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION companion_counts_certificates() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    draft_delta BIGINT := 0;
    issued_delta BIGINT := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT draft_delta + COUNT(*) FILTER (WHERE status = 'draft'), issued_delta + COUNT(*) FILTER (WHERE status = 'issued')
        INTO draft_delta, issued_delta FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT draft_delta - COUNT(*) FILTER (WHERE status = 'draft'), issued_delta - COUNT(*) FILTER (WHERE status = 'issued')
        INTO draft_delta, issued_delta FROM old_rows;
    END IF;
    IF draft_delta <> 0 OR issued_delta <> 0 THEN
        UPDATE companion_counts SET certificates_draft = certificates_draft + draft_delta,
            certificates_issued = certificates_issued + issued_delta
        WHERE id = 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER companion_counts_worker_insert AFTER INSERT ON worker_profiles
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_workers();

CREATE TRIGGER companion_counts_worker_delete AFTER DELETE ON worker_profiles
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_workers();

CREATE TRIGGER companion_counts_worker_update AFTER UPDATE ON worker_profiles
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_workers();

CREATE TRIGGER companion_counts_certificate_insert AFTER INSERT ON certificates
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_certificates();

CREATE TRIGGER companion_counts_certificate_delete AFTER DELETE ON certificates
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_certificates();

CREATE TRIGGER companion_counts_certificate_update AFTER UPDATE ON certificates
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companion_counts_certificates();

-- 0007 audit: one log of who did what, for every area. Same portability rules as 0001
-- (see docs/database.md).
--
-- Design notes
-- * Every audited write (a staff change, an account event) inserts its row in the same
--   transaction as the change it describes, through src/audit: the change and its entry commit or
--   roll back together.
-- * The actor is copied as it was at the time (id, email, role, aal), so the log still reads
--   correctly after the user changes their email or is deleted; actor_id is not a foreign key.
--   Jobs that delete personal data audit by id only.
-- * before_json / after_json hold the target's state as JSON text (NULL for a create's before or
--   a delete's after); detail holds context that is not the target's state (a failure reason).
-- * The accounts' events used to live in auth_audit_log; they move here, and auth_audit_log
--   stays as a view with its old columns for the queries in docs/operations.md.

CREATE TABLE audit_log (
    id              UUID NOT NULL PRIMARY KEY,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    action          TEXT NOT NULL,
    actor_id        UUID,
    actor_email     TEXT,
    actor_role      TEXT NOT NULL DEFAULT 'anonymous',
    actor_aal       TEXT,
    target_type     TEXT NOT NULL,
    target_id       TEXT,
    before_json     TEXT,
    after_json      TEXT,
    detail          TEXT NOT NULL DEFAULT '{}',
    client_address  TEXT
);

CREATE INDEX audit_log_created_at_idx ON audit_log (created_at, id);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at);
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, created_at);

INSERT INTO audit_log (id, created_at, action, actor_id, actor_role, target_type, target_id, detail, client_address)
SELECT id, created_at, event, actor_id, CASE WHEN actor_id IS NULL THEN 'anonymous' ELSE 'admin' END, 'user',
       CAST(user_id AS TEXT), detail, ip
FROM auth_audit_log;

DROP TABLE auth_audit_log;

CREATE VIEW auth_audit_log AS
SELECT id, created_at, action AS event, target_id AS user_id, actor_id, client_address AS ip, detail
FROM audit_log
WHERE target_type = 'user';

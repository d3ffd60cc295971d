-- 0028 one claim per record (docs/billing.md, "One claim per record").
--
-- Design notes
-- * A row is an action on an order or a subscription that calls the payment provider (change
--   plan, cancel, resume, refund, cancel order): written in flight in the transaction that locks
--   the record's row and reads the state the action decides on, finished (done) in the transaction
--   that writes its outcome, or failed when the provider refused. While one is in flight every
--   other action on the record is 409 action_in_progress: the partial unique index allows one in
--   flight per record, whatever two servers try at once.
-- * lease_until: a claim left by a server that stopped mid-action is over when it passes; the same
--   Idempotency-Key then takes its row over (same id, which is the provider's idempotency key).
-- * idempotency_key: the client's Idempotency-Key, unique per record; request is what it asked
--   (JSON), so the same key with another request is refused. Finished rows are pruned after a day.

CREATE TABLE record_actions (
    id               UUID NOT NULL PRIMARY KEY,
    record_type      TEXT NOT NULL
                     CONSTRAINT record_actions_record_type_check CHECK (record_type IN ('order', 'subscription')),
    record_id        UUID NOT NULL,
    action           TEXT NOT NULL,
    idempotency_key  TEXT,
    request          TEXT NOT NULL DEFAULT '{}',
    state            TEXT NOT NULL
                     CONSTRAINT record_actions_state_check CHECK (state IN ('in_flight', 'done', 'failed')),
    started_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    lease_until      TIMESTAMP WITH TIME ZONE NOT NULL,
    finished_at      TIMESTAMP WITH TIME ZONE
);

CREATE UNIQUE INDEX record_actions_in_flight_key ON record_actions (record_type, record_id) WHERE state = 'in_flight';
CREATE UNIQUE INDEX record_actions_idempotency_key_key ON record_actions (record_type, record_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX record_actions_finished_at_idx ON record_actions (finished_at);

// Idempotency-Key values (docs/billing.md, "One claim per record"): one per user intent (a refund
// dialog's opening, a plan chosen in the change-plan dialog), so a double click or a retry of the
// same intent is answered once and never charges or refunds twice.

/** A new key: a random UUID where the browser has one. */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${String(Date.now())}-${String(Math.random())}`;
}

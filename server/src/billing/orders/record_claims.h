#pragma once
// One claim per record (docs/billing.md, "One claim per record"): two actions on one order or
// subscription never both decide from the same state.
//
// An action that calls the payment provider claims its record in the transaction that locks the
// record's row and reads the state it decides on: a row of record_actions (migration 0028) in
// flight, unique per record, with a lease. It calls the provider with nothing held, then writes its
// outcome and finishes the claim in one transaction (or fails the claim when the provider refused).
// Meanwhile any other action on the record, with or without a provider call, is 409
// action_in_progress (with Retry-After) and changes nothing. A claim left by a crashed server
// expires with its lease; the same Idempotency-Key then takes it over under the same id, which is
// also the provider's idempotency key, so the retried call cannot act twice.
#include "db/database.h"

#include <optional>
#include <string>

namespace storefront::billing {

namespace record_type {
inline constexpr const char* kOrder = "order";
inline constexpr const char* kSubscription = "subscription";
} // namespace record_type

struct ClaimRequest {
    std::string recordType; // record_type::
    std::string recordId;
    std::string action;             // "change_plan", "cancel_now", "refund", ...
    std::optional<std::string> key; // the client's Idempotency-Key
    std::string request;            // what was asked (JSON text): a key used again must ask the same
};

struct Claim {
    std::string id;       // also the provider's idempotency key for the action's call
    bool resumed = false; // an earlier attempt with the same key that failed or whose lease ran out
};

class RecordClaims {
public:
    explicit RecordClaims(int leaseSeconds = 120) : leaseSeconds_(leaseSeconds) {}

    // In `tx`, which holds the record's row lock. The claim; nullopt when `key` names an action of
    // this record that is done already (the caller answers as it did the first time). 409
    // action_in_progress while another claim is in flight (Retry-After: its lease left); 409
    // idempotency_key_reused when `key` was used for another action or another request.
    std::optional<Claim> claim(db::Tx& tx, const ClaimRequest& request);
    // 409 action_in_progress while a claim is in flight on the record: for actions that call no
    // provider and take only the row lock (ship, complete, mark as paid, the customer's cancel).
    void refuseWhileClaimed(db::Tx& tx, const std::string& recordType, const std::string& recordId);
    // The outcome is written in `tx`: the claim is done. False (and an error in the log) when the
    // claim was no longer in flight (its lease ran out and another took the record over).
    bool finish(db::Tx& tx, const std::string& claimId);
    // The action changed nothing (the provider refused or failed): the claim ends, in its own
    // transaction; with a key, the same key may try again.
    void fail(db::Database& db, const std::string& claimId);
    // Deletes finished claims (and their keys) older than `before`.
    void prune(db::Tx& tx, const std::string& before);

private:
    int leaseSeconds_;
};

} // namespace storefront::billing

#include "billing/orders/record_claims.h"

#include "http/api_error.h"

#include <Poco/Logger.h>

#include <algorithm>

namespace storefront::billing {

namespace {

using http::ApiError;
using http::ErrorKind;

constexpr const char* kClaimColumns =
    "SELECT CAST(id AS TEXT) AS id, action, request, state, CAST(lease_until AS TEXT) AS lease_until FROM record_actions ";
constexpr const char* kClaimByKey = "WHERE record_type = ? AND record_id = ? AND idempotency_key = ?";
constexpr const char* kClaimInFlight = "WHERE record_type = ? AND record_id = ? AND state = 'in_flight'";
constexpr const char* kInsertClaim =
    "INSERT INTO record_actions (id, record_type, record_id, action, idempotency_key, request, state, started_at, lease_until) "
    "VALUES (?, ?, ?, ?, ?, ?, 'in_flight', ?, ?)";
constexpr const char* kTakeOverClaim =
    "UPDATE record_actions SET state = 'in_flight', started_at = ?, lease_until = ?, finished_at = NULL WHERE id = ?";
// A lease that ran out: the action is treated as failed (a later one may take the record).
constexpr const char* kExpireClaim = "UPDATE record_actions SET state = 'failed', finished_at = ? WHERE id = ? AND state = 'in_flight'";
constexpr const char* kFinishClaim = "UPDATE record_actions SET state = 'done', finished_at = ? WHERE id = ? AND state = 'in_flight'";
constexpr const char* kFailClaim = "UPDATE record_actions SET state = 'failed', finished_at = ? WHERE id = ? AND state = 'in_flight'";
constexpr const char* kPruneClaims = "DELETE FROM record_actions WHERE state <> 'in_flight' AND finished_at < ?";

struct ClaimRow {
    std::string id, action, request, state, leaseUntil;
};

ClaimRow readClaimRow(const db::Row& r) {
    return {r.text("id"), r.text("action"), r.text("request"), r.text("state"), r.timestamp("lease_until")};
}

ApiError actionInProgress(const db::Tx& tx, const ClaimRow& live) {
    ApiError e(ErrorKind::Conflict, "action_in_progress",
               "Another change to this record is still being made. Wait a moment, reload, and try again.");
    e.retryAfterSeconds = static_cast<int>(std::max<std::int64_t>(1, db::epochFromTimestamp(live.leaseUntil) - tx.clock().epochSeconds()));
    e.extra = {{"action", live.action}};
    return e;
}

} // namespace

std::optional<Claim> RecordClaims::claim(db::Tx& tx, const ClaimRequest& req) {
    const auto now = tx.clock().nowTimestamp();
    const auto leaseUntil = tx.clock().timestampAfter(leaseSeconds_);
    std::optional<ClaimRow> keyed;
    if (req.key) {
        keyed = tx.query(std::string(kClaimColumns) + kClaimByKey).bind(req.recordType, req.recordId, *req.key).one(readClaimRow);
        if (keyed && (keyed->action != req.action || keyed->request != req.request))
            throw ApiError(ErrorKind::Conflict, "idempotency_key_reused",
                           "This Idempotency-Key was used for another action on this record.");
        if (keyed && keyed->state == "done") return std::nullopt;
    }
    // Whatever holds the record now: alive, it refuses this one; its lease run out, it is over.
    if (auto live = tx.query(std::string(kClaimColumns) + kClaimInFlight).bind(req.recordType, req.recordId).one(readClaimRow)) {
        if (db::epochFromTimestamp(live->leaseUntil) > tx.clock().epochSeconds()) throw actionInProgress(tx, *live);
        Poco::Logger::get("billing").warning("%s %s: the %s claim %s ran out its lease unfinished (a server stopped?); taken over",
                                             req.recordType, req.recordId, live->action, live->id);
        tx.query(kExpireClaim).bind(now, live->id).run();
    }
    if (keyed) {
        tx.query(kTakeOverClaim).bind(now, leaseUntil, keyed->id).run();
        return Claim{keyed->id, true};
    }
    Claim claim{db::newId(), false};
    tx.query(kInsertClaim).bind(claim.id, req.recordType, req.recordId, req.action, req.key, req.request, now, leaseUntil).run();
    return claim;
}

void RecordClaims::refuseWhileClaimed(db::Tx& tx, const std::string& recordType, const std::string& recordId) {
    auto live = tx.query(std::string(kClaimColumns) + kClaimInFlight).bind(recordType, recordId).one(readClaimRow);
    if (live && db::epochFromTimestamp(live->leaseUntil) > tx.clock().epochSeconds()) throw actionInProgress(tx, *live);
}

bool RecordClaims::finish(db::Tx& tx, const std::string& claimId) {
    if (tx.query(kFinishClaim).bind(tx.clock().nowTimestamp(), claimId).changed() == 1) return true;
    Poco::Logger::get("billing").error("claim %s was no longer in flight when its outcome was written (its lease ran out)",
                                       claimId);
    return false;
}

void RecordClaims::fail(db::Database& db, const std::string& claimId) {
    db.write([&](db::Tx& tx) { tx.query(kFailClaim).bind(tx.clock().nowTimestamp(), claimId).run(); });
}

void RecordClaims::prune(db::Tx& tx, const std::string& before) { tx.query(kPruneClaims).bind(before).run(); }

} // namespace storefront::billing

#include "companion/companion_service.h"

#include "companion/companion_json.h"
#include "http/api_error.h"

#include <Poco/DateTime.h>
#include <Poco/Exception.h>
#include <Poco/Timestamp.h>

#include <cstdio>

namespace storefront::companion {

namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::int64_t kActivityResolutionMillis = 60'000; // last_active_at is written at most this often

ApiError certificateNotFound() { return ApiError::notFound("certificate_not_found", "Certificate not found."); }

ApiError certificateIssued() {
    return ApiError(ErrorKind::Conflict, "certificate_issued", "This certificate has been issued and can no longer change.");
}

} // namespace

// ---- the companion app ----

Worker CompanionService::workerFor(const Caller& caller) {
    const auto nowMs = clock_.epochMillis();
    if (auto worker = repo_.findWorkerByUser(caller.userId)) {
        const bool stale = !worker->lastActiveAt || millisOf(*worker->lastActiveAt) < nowMs - kActivityResolutionMillis;
        if (stale) {
            const auto now = timestampAt(nowMs);
            bool wrote = false;
            db_.write([&](db::Tx& tx) {
                wrote = repo_.touchWorker(tx, worker->id, now, timestampAt(nowMs - kActivityResolutionMillis));
            });
            if (wrote) {
                worker->lastActiveAt = now;
                worker->inactivityWarnedAt.reset();
            }
        }
        return *worker;
    }
    db_.write([&](db::Tx& tx) { repo_.insertWorkerForUser(tx, caller.userId, caller.fullName, caller.email, timestampAt(nowMs)); });
    auto created = repo_.findWorkerByUser(caller.userId);
    if (!created) throw ApiError(ErrorKind::Internal, "internal_error", "The worker profile could not be created.");
    return *created;
}

Worker CompanionService::updateProfile(const Worker& worker, const ProfileInput& input) {
    db_.write([&](db::Tx& tx) { repo_.updateProfile(tx, worker.id, input.fullName, input.licenceNumber, now()); });
    return *repo_.findWorker(worker.id);
}

bool CompanionService::isPro(const Worker& worker) const {
    if (worker.entitlement != "pro") return false;
    return !worker.proExpiresAt || millisOf(*worker.proExpiresAt) > clock_.epochMillis();
}

Certificate CompanionService::certificate(const Worker& worker, const std::string& id) {
    auto found = repo_.findCertificate(id, worker.id);
    if (!found) throw certificateNotFound();
    return *found;
}

Certificate CompanionService::createCertificate(const Worker& worker, const CertificateInput& input) {
    Certificate c;
    c.id = db::newId();
    c.workerId = worker.id;
    c.siteLocation = input.siteLocation;
    c.status = "draft";
    c.createdAt = c.updatedAt = now();
    db_.write([&](db::Tx& tx) {
        // The worker's row lock makes "count, then insert" one decision at a time per worker.
        repo_.lockWorker(tx, worker.id);
        auto current = repo_.findWorker(tx, worker.id);
        if (!current) throw ApiError::notFound("worker_not_found", "Worker not found.");
        if (!isPro(*current) && repo_.certificateCount(tx, worker.id) >= settings_.freeCertificateLimit)
            throw ApiError(ErrorKind::Conflict, "free_tier_limit",
                           "The free tier holds at most " + std::to_string(settings_.freeCertificateLimit) +
                               " certificates. Upgrade to Pro for unlimited certificates.");
        repo_.insertCertificate(tx, c);
    });
    return certificate(worker, c.id);
}

Certificate CompanionService::updateCertificate(const Worker& worker, const std::string& id, const CertificateInput& input) {
    db_.write([&](db::Tx& tx) {
        auto current = repo_.findCertificate(tx, id, worker.id);
        if (!current) throw certificateNotFound();
        if (current->status != "draft" || !repo_.updateDraft(tx, id, worker.id, input.siteLocation, now()))
            throw certificateIssued();
    });
    return certificate(worker, id);
}

Certificate CompanionService::issueCertificate(const Worker& worker, const std::string& id) {
    db_.write([&](db::Tx& tx) {
        auto current = repo_.findCertificate(tx, id, worker.id);
        if (!current) throw certificateNotFound();
        if (current->status != "draft") throw certificateIssued();
        const auto nowMs = clock_.epochMillis();
        const int year = Poco::DateTime(Poco::Timestamp(static_cast<Poco::Timestamp::TimeVal>(nowMs) * 1000)).year();
        const auto sequence = repo_.nextCertificateNumber(tx, year);
        char number[32];
        std::snprintf(number, sizeof number, "WW-%04d-%06lld", year, static_cast<long long>(sequence));
        if (!repo_.issue(tx, id, worker.id, number, timestampAt(nowMs))) throw certificateIssued();
    });
    return certificate(worker, id);
}

Worker CompanionService::redeem(const Worker& worker, const std::string& code) {
    const auto nowMs = clock_.epochMillis();
    const auto now = timestampAt(nowMs);
    db_.write([&](db::Tx& tx) {
        auto found = repo_.findPromoCodeByCode(tx, code);
        if (!found) throw ApiError::notFound("promo_code_not_found", "This promo code does not exist.");
        if (repo_.hasRedeemed(tx, found->id, worker.id))
            throw ApiError(ErrorKind::Conflict, "promo_code_already_redeemed", "You have already redeemed this promo code.");
        auto claimed = repo_.claimPromoCode(tx, code, now);
        if (!claimed) {
            // Why the guarded UPDATE refused, read again after it (another redemption may have
            // taken the last use meanwhile).
            auto latest = repo_.findPromoCodeByCode(tx, code).value_or(*found);
            if (!latest.active) throw ApiError(ErrorKind::Conflict, "promo_code_inactive", "This promo code is no longer active.");
            if (latest.expiresAt && millisOf(*latest.expiresAt) <= nowMs)
                throw ApiError(ErrorKind::Conflict, "promo_code_expired", "This promo code has expired.");
            throw ApiError(ErrorKind::Conflict, "promo_code_used_up", "This promo code has been used the maximum number of times.");
        }
        // The same worker redeeming twice at once: the unique (code, worker) index keeps the
        // second out, and its claimed use is rolled back with this transaction.
        if (!repo_.insertRedemption(tx, claimed->id, worker.id, now))
            throw ApiError(ErrorKind::Conflict, "promo_code_already_redeemed", "You have already redeemed this promo code.");
        auto current = repo_.findWorker(tx, worker.id);
        if (!current) throw ApiError::notFound("worker_not_found", "Worker not found.");
        std::optional<std::string> expires; // lifetime
        if (claimed->durationMonths) {
            auto candidate = addMonths(nowMs, static_cast<int>(*claimed->durationMonths));
            expires = candidate;
            // A longer pro period (or lifetime) already held is never shortened.
            if (current->entitlement == "pro") {
                if (!current->proExpiresAt) expires.reset();
                else if (millisOf(*current->proExpiresAt) > millisOf(candidate)) expires = current->proExpiresAt;
            }
        }
        repo_.setEntitlement(tx, worker.id, "pro", expires, now);
    });
    return *repo_.findWorker(worker.id);
}

// ---- staff ----

Stats CompanionService::stats() {
    Stats s;
    const auto counts = repo_.counts(); // one row (migration 0012), not a count of a million
    s.workers = counts.workers;
    s.certificates = counts.certificates.draft + counts.certificates.issued;
    s.redemptions = repo_.redemptionCount();
    s.inactive = repo_.inactiveCount(timestampAt(clock_.epochMillis() - settings_.inactivityWarnDays * kDayMillis));
    return s;
}

PromoCode CompanionService::createPromoCode(const audit::Actor& actor, const PromoCodeInput& input) {
    const auto nowMs = clock_.epochMillis();
    NewPromoCode row;
    row.code = input.code;
    row.description = input.description;
    row.durationMonths = input.durationMonths;
    row.maxUses = input.maxUses;
    if (input.expiresDays) row.expiresAt = timestampAt(nowMs + *input.expiresDays * kDayMillis);
    row.createdBy = actor.userId;
    auto taken = [] {
        ApiError e(ErrorKind::Conflict, "promo_code_taken", "A promo code with this code already exists.");
        e.fields = {{"code", "This code is already taken."}};
        return e;
    };
    std::string id;
    db_.write([&](db::Tx& tx) {
        if (repo_.findPromoCodeByCode(tx, input.code)) throw taken();
        // A code taken since the look-up (two staff at once): the unique index keeps it out.
        auto inserted = repo_.insertPromoCode(tx, row, timestampAt(nowMs));
        if (!inserted) throw taken();
        id = *inserted;
        auto created = repo_.findPromoCode(tx, id);
        audit::record(tx, actor, {"promo_code.created", "promo_code", id, nullptr, toJson(*created)});
    });
    return *repo_.findPromoCode(id);
}

PromoCode CompanionService::setPromoCodeActive(const audit::Actor& actor, const std::string& id, bool active) {
    db_.write([&](db::Tx& tx) {
        auto before = repo_.findPromoCode(tx, id);
        if (!before) throw ApiError::notFound("promo_code_not_found", "Promo code not found.");
        repo_.setPromoCodeActive(tx, id, active);
        auto after = repo_.findPromoCode(tx, id);
        audit::record(tx, actor, {"promo_code.updated", "promo_code", id, toJson(*before), toJson(*after)});
    });
    return *repo_.findPromoCode(id);
}

Worker CompanionService::setEntitlement(const audit::Actor& actor, const std::string& id, const std::string& entitlement) {
    db_.write([&](db::Tx& tx) {
        auto before = repo_.findWorker(tx, id);
        if (!before) throw ApiError::notFound("worker_not_found", "Worker not found.");
        repo_.setEntitlement(tx, id, entitlement, std::nullopt, now());
        auto after = repo_.findWorker(tx, id);
        audit::record(tx, actor, {"worker.entitlement_changed", "worker", id, toJson(*before), toJson(*after)});
    });
    return *repo_.findWorker(id);
}

} // namespace storefront::companion

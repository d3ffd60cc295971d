#pragma once
// All of the companion area's SQL: worker profiles, certificates, promo codes and redemptions,
// the staff lists (searched, filtered, sorted, counted and paged in SQL, db/list.h), the
// certificate number counter, and the inactivity job's reads and deletes. One class, in one file
// per resource: worker_repository.cpp, certificate_repository.cpp (+ its search planner,
// certificate_search.cpp) and promo_code_repository.cpp.
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::companion {

struct Worker {
    std::string id;
    std::optional<std::string> userId, fullName, email, licenceNumber;
    std::string entitlement; // free | pro (as stored)
    std::optional<std::string> proExpiresAt, lastActiveAt, inactivityWarnedAt;
    std::string createdAt, updatedAt;
    std::int64_t certificatesCount = 0;
};

struct Certificate {
    std::string id, workerId;
    std::optional<std::string> number, siteLocation;
    std::string status; // draft | issued
    std::string createdAt, updatedAt;
    std::optional<std::string> issuedAt;
    std::optional<std::string> workerName, workerEmail;
};

struct PromoCode {
    std::string id, code, description, entitlement;
    std::optional<std::int64_t> durationMonths, maxUses;
    std::int64_t usesCount = 0;
    std::optional<std::string> expiresAt;
    bool active = true;
    std::string createdAt;
};

// A staff list query: search, filter, order (from the repository's allowlist: kWorkerSorts,
// kCertificateSorts), page, and the total when the caller knows it (no search: the counts by tier
// or status it read anyway), so the table is not counted twice.
struct ListQuery : db::PageQuery {
    std::optional<std::string> search;
    std::optional<std::string> filter; // tier (free | pro) or status (draft | issued)
    // How many rows the filter leaves before searching (the counts the caller read anyway), so a
    // search can tell a broad term (walk the sort's index) from a narrow one (use its matches).
    std::optional<std::int64_t> scopeRows;
};

using db::Page;

struct TierCounts {
    std::int64_t free = 0, pro = 0;
};
struct StatusCounts {
    std::int64_t draft = 0, issued = 0;
};
// The maintained counts (companion_counts, migration 0012).
struct CompanionCounts {
    TierCounts workers;
    StatusCounts certificates;
};

struct NewPromoCode {
    std::string code, description;
    std::optional<std::int64_t> durationMonths, maxUses;
    std::optional<std::string> expiresAt;
    std::optional<std::string> createdBy;
};

// A code's use claimed by the guarded UPDATE.
struct ClaimedCode {
    std::string id;
    std::optional<std::int64_t> durationMonths;
};

class CompanionRepository {
public:
    // The sorts of the staff lists: the words a route may pass, and the SQL each stands for.
    static const db::SortColumns kWorkerSorts;      // name, tier, joined (default, newest first)
    static const db::SortColumns kCertificateSorts; // number, status, created (default, newest first)

    explicit CompanionRepository(db::Database& db) : db_(db) {}

    // ---- workers ----
    std::optional<Worker> findWorker(const std::string& id);
    std::optional<Worker> findWorker(db::Tx& tx, const std::string& id);
    std::optional<Worker> findWorkerByUser(const std::string& userId);
    // Inserts the user's profile unless one exists (ON CONFLICT DO NOTHING).
    void insertWorkerForUser(db::Tx& tx, const std::string& userId, const std::optional<std::string>& fullName,
                             const std::optional<std::string>& email, const std::string& now);
    void insertWorker(db::Tx& tx, const Worker& worker);
    // Sets last_active_at = now unless it is newer than `staleBefore`; true when it wrote.
    bool touchWorker(db::Tx& tx, const std::string& id, const std::string& now, const std::string& staleBefore);
    void updateProfile(db::Tx& tx, const std::string& id, const std::optional<std::string>& fullName,
                       const std::optional<std::string>& licenceNumber, const std::string& now);
    void setEntitlement(db::Tx& tx, const std::string& id, const std::string& entitlement,
                        const std::optional<std::string>& proExpiresAt, const std::string& now);
    // Takes the worker's row lock (PostgreSQL) so rules over their rows (the free-tier limit) are
    // decided one transaction at a time.
    void lockWorker(db::Tx& tx, const std::string& id);
    Page<Worker> listWorkers(const ListQuery& query);
    // The staff lists whole, for an export: the list's search and filter in `order` (a keyset of
    // the sort allowlist), each row handed to `onRow` as it is read (keyset pages); returns how many.
    std::int64_t exportWorkers(const std::optional<std::string>& search, const std::optional<std::string>& tier,
                               const db::Keyset& order, const std::function<void(const Worker&)>& onRow);
    std::int64_t exportCertificates(const std::optional<std::string>& search, const std::optional<std::string>& status,
                                    const db::Keyset& order, const std::function<void(const Certificate&)>& onRow);
    db::Database& database() { return db_; }
    // Workers by tier and certificates by status: one row, kept exact by triggers (migration 0012).
    CompanionCounts counts();
    TierCounts tierCounts();
    std::int64_t inactiveCount(const std::string& activeBefore);

    // ---- certificates ----
    Page<Certificate> listCertificates(const ListQuery& query);
    Page<Certificate> listWorkerCertificates(const std::string& workerId, const ListQuery& query);
    StatusCounts statusCounts();
    std::optional<Certificate> findCertificate(const std::string& id, const std::string& workerId);
    std::optional<Certificate> findCertificate(db::Tx& tx, const std::string& id, const std::string& workerId);
    std::int64_t certificateCount(db::Tx& tx, const std::string& workerId);
    void insertCertificate(db::Tx& tx, const Certificate& certificate);
    bool updateDraft(db::Tx& tx, const std::string& id, const std::string& workerId,
                     const std::optional<std::string>& siteLocation, const std::string& now);
    bool issue(db::Tx& tx, const std::string& id, const std::string& workerId, const std::string& number,
               const std::string& now);
    // The next number of `year`'s sequence (1, 2, ...), atomically.
    std::int64_t nextCertificateNumber(db::Tx& tx, int year);

    // ---- promo codes ----
    Page<PromoCode> listPromoCodes(std::int64_t limit, std::int64_t offset);
    std::optional<PromoCode> findPromoCode(const std::string& id);
    std::optional<PromoCode> findPromoCode(db::Tx& tx, const std::string& id);
    std::optional<PromoCode> findPromoCodeByCode(const std::string& code);
    std::optional<PromoCode> findPromoCodeByCode(db::Tx& tx, const std::string& code);
    // The new code's id; nullopt when the code is taken (its unique index; no error raised).
    std::optional<std::string> insertPromoCode(db::Tx& tx, const NewPromoCode& code, const std::string& now);
    void setPromoCodeActive(db::Tx& tx, const std::string& id, bool active);
    // One use of an active, unexpired code that has uses left (one guarded UPDATE ... RETURNING).
    std::optional<ClaimedCode> claimPromoCode(db::Tx& tx, const std::string& code, const std::string& now);
    bool hasRedeemed(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId);
    // False when the worker has already redeemed the code (its unique index; no error raised).
    bool insertRedemption(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId, const std::string& now);
    std::int64_t redemptionCount();

    // ---- the inactivity job ----
    struct InactiveWorker {
        std::string id;
        std::optional<std::string> email, fullName;
        std::string entitlement;
    };
    // Not warned yet, last active before `activeBefore`.
    std::vector<InactiveWorker> workersToWarn(const std::string& activeBefore, std::int64_t limit);
    bool markWarned(db::Tx& tx, const std::string& id, const std::string& activeBefore, const std::string& now);
    // Free workers last active before `activeBefore` and warned at or before `warnedBy`.
    std::vector<std::string> workersToDelete(const std::string& activeBefore, const std::string& warnedBy, std::int64_t limit);
    bool deleteInactiveWorker(db::Tx& tx, const std::string& id, const std::string& activeBefore, const std::string& warnedBy);

private:
    Page<Certificate> searchCertificates(Poco::Data::Session& s, const ListQuery& query);

    db::Database& db_;
};

} // namespace storefront::companion

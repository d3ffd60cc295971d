#include "companion/companion_repository.h"

#include "db/list.h"

#include <stdexcept>

namespace storefront::companion {

namespace {

// ---- workers ----
#define WORKER_FIELDS                                                                                                \
    "SELECT CAST(w.id AS TEXT) AS id, CAST(w.user_id AS TEXT) AS user_id, w.full_name, w.email, "                     \
    "w.ewrb_licence_number, w.entitlement, CAST(w.pro_expires_at AS TEXT) AS pro_expires_at, "                        \
    "CAST(w.last_active_at AS TEXT) AS last_active_at, CAST(w.inactivity_warned_at AS TEXT) AS inactivity_warned_at, " \
    "CAST(w.created_at AS TEXT) AS created_at, CAST(w.updated_at AS TEXT) AS updated_at, "                            \
    "(SELECT COUNT(*) FROM certificates c WHERE c.worker_id = w.id) AS certificates_count"
#define WORKER_COLUMNS WORKER_FIELDS " FROM worker_profiles w"

constexpr const char* kWorkerColumns = WORKER_COLUMNS;
// A searched page also counts its matches, in the same scan (the window runs before LIMIT).
constexpr const char* kWorkerColumnsCounted = WORKER_FIELDS ", COUNT(*) OVER () AS total_count FROM worker_profiles w";
// A searched page: the matches (innermost) are counted and one page of them chosen (inner), and
// only that page's rows get their certificate counts (a broad term matches thousands of workers).
// On PostgreSQL the matches sit behind OFFSET 0, a planner fence: without it the planner walks
// the sort's index testing all 100,000 rows (it costs the window count as if LIMIT stopped it
// early), 455 ms instead of 6 ms for `ngata`; with it the pg_trgm indexes find the matches.
constexpr const char* kWorkerSearchPageOuter = WORKER_FIELDS ", p.total_count FROM worker_profiles w JOIN (";
constexpr const char* kWorkerSearchPageInner =
    "SELECT w.id, w.full_name, w.entitlement, w.created_at, COUNT(*) OVER () AS total_count "
    "FROM (SELECT * FROM worker_profiles w";
constexpr const char* kWorkerSearchPageFence = " OFFSET 0";
constexpr const char* kWorkerSearchPageMatchesEnd = ") w ORDER BY ";
constexpr const char* kWorkerSearchPageJoin = ") p ON p.id = w.id ORDER BY ";
// A deep unsearched page (OFFSET at least kDeferredJoinOffset) chooses its ids from the
// sort's index first: PostgreSQL computes the select list, certificates_count included, for every
// row OFFSET skips (50,000 subqueries for page 1000), SQLite does not.
constexpr const char* kWorkerPageIds = "SELECT w.id FROM worker_profiles w";
constexpr const char* kWorkerById = WORKER_COLUMNS " WHERE w.id = ?";
constexpr const char* kWorkerByUser = WORKER_COLUMNS " WHERE w.user_id = ?";
constexpr const char* kWorkerCount = "SELECT COUNT(*) FROM worker_profiles w";
constexpr const char* kInsertWorkerForUser =
    "INSERT INTO worker_profiles (id, user_id, full_name, email, entitlement, last_active_at, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, 'free', ?, ?, ?) ON CONFLICT (user_id) DO NOTHING";
constexpr const char* kInsertWorker =
    "INSERT INTO worker_profiles (id, user_id, full_name, email, ewrb_licence_number, entitlement, pro_expires_at, "
    "last_active_at, inactivity_warned_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
// At most one write a minute per worker: only a stale last_active_at is replaced.
constexpr const char* kTouchWorker =
    "UPDATE worker_profiles SET last_active_at = ?, inactivity_warned_at = NULL "
    "WHERE id = ? AND (last_active_at IS NULL OR last_active_at < ?)";
constexpr const char* kUpdateProfile =
    "UPDATE worker_profiles SET full_name = ?, ewrb_licence_number = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetEntitlement =
    "UPDATE worker_profiles SET entitlement = ?, pro_expires_at = ?, updated_at = ? WHERE id = ?";
constexpr const char* kLockWorker = "UPDATE worker_profiles SET updated_at = updated_at WHERE id = ?";
// A search is a scan (substring match); its page query counts the matches too (total_count).
constexpr const char* kWhereWorkerSearch =
    "(LOWER(w.full_name) LIKE ? ESCAPE '\\' OR LOWER(w.email) LIKE ? ESCAPE '\\' "
    "OR LOWER(w.ewrb_licence_number) LIKE ? ESCAPE '\\')";
// On SQLite a term of three or more characters is looked up in the trigram index of migration
// 0011 (exactly the rows of the LIKE above); on PostgreSQL the LIKE itself uses the pg_trgm
// indexes. Shorter terms scan.
constexpr const char* kWhereWorkerSearchIndexed =
    "w.rowid IN (SELECT rowid FROM worker_profiles_search WHERE worker_profiles_search MATCH ?)";
constexpr const char* kWhereTier = "w.entitlement = ?";
// The headings' and cards' numbers: the one row of companion_counts (migration 0012), kept exact
// by triggers in the transaction of every insert, issue, entitlement change and delete.
constexpr const char* kCompanionCounts =
    "SELECT workers_free, workers_pro, certificates_draft, certificates_issued FROM companion_counts WHERE id = 1";
// Time-based, so not maintained: a range of worker_profiles_last_active_at_idx.
constexpr const char* kInactiveCount = "SELECT COUNT(*) FROM worker_profiles WHERE last_active_at < ?";

// ---- the inactivity job ----
constexpr const char* kToWarn =
    "SELECT CAST(id AS TEXT) AS id, email, full_name, entitlement FROM worker_profiles "
    "WHERE last_active_at < ? AND inactivity_warned_at IS NULL ORDER BY last_active_at LIMIT ?";
constexpr const char* kMarkWarned =
    "UPDATE worker_profiles SET inactivity_warned_at = ? WHERE id = ? AND inactivity_warned_at IS NULL AND last_active_at < ?";
constexpr const char* kToDelete =
    "SELECT CAST(id AS TEXT) AS id FROM worker_profiles WHERE entitlement = 'free' AND last_active_at < ? "
    "AND inactivity_warned_at <= ? ORDER BY last_active_at LIMIT ?";
// Re-checked inside the worker's transaction: activity since the read keeps the account.
constexpr const char* kDeleteInactive =
    "DELETE FROM worker_profiles WHERE id = ? AND entitlement = 'free' AND last_active_at < ? AND inactivity_warned_at <= ?";

#undef WORKER_FIELDS
#undef WORKER_COLUMNS

Worker readWorker(const db::Row& r) {
    Worker w;
    w.id = r.text("id");
    w.userId = r.optText("user_id");
    w.fullName = r.optText("full_name");
    w.email = r.optText("email");
    w.licenceNumber = r.optText("ewrb_licence_number");
    w.entitlement = r.text("entitlement");
    w.proExpiresAt = r.optTimestamp("pro_expires_at");
    w.lastActiveAt = r.optTimestamp("last_active_at");
    w.inactivityWarnedAt = r.optTimestamp("inactivity_warned_at");
    w.createdAt = r.timestamp("created_at");
    w.updatedAt = r.timestamp("updated_at");
    w.certificatesCount = r.int64("certificates_count");
    return w;
}

} // namespace

const db::SortColumns CompanionRepository::kWorkerSorts({{"name", "w.full_name"}, {"tier", "w.entitlement"}, {"joined", "w.created_at"}},
                                                        "w.id", "joined");

// ---- workers ----

std::optional<Worker> CompanionRepository::findWorker(const std::string& id) {
    auto s = db_.session();
    return db::query(s, kWorkerById).bind(id).one(readWorker);
}

std::optional<Worker> CompanionRepository::findWorker(db::Tx& tx, const std::string& id) {
    return tx.query(kWorkerById).bind(id).one(readWorker);
}

std::optional<Worker> CompanionRepository::findWorkerByUser(const std::string& userId) {
    auto s = db_.session();
    return db::query(s, kWorkerByUser).bind(userId).one(readWorker);
}

void CompanionRepository::insertWorkerForUser(db::Tx& tx, const std::string& userId, const std::optional<std::string>& fullName,
                                              const std::optional<std::string>& email, const std::string& now) {
    tx.query(kInsertWorkerForUser).bind(db::newId(), userId, fullName, email, now, now, now).run();
}

void CompanionRepository::insertWorker(db::Tx& tx, const Worker& w) {
    tx.query(kInsertWorker)
        .bind(w.id, w.userId, w.fullName, w.email, w.licenceNumber, w.entitlement, w.proExpiresAt)
        .bind(w.lastActiveAt, w.inactivityWarnedAt, w.createdAt, w.updatedAt)
        .run();
}

bool CompanionRepository::touchWorker(db::Tx& tx, const std::string& id, const std::string& now, const std::string& staleBefore) {
    return tx.query(kTouchWorker).bind(now, id, staleBefore).changed() == 1;
}

void CompanionRepository::updateProfile(db::Tx& tx, const std::string& id, const std::optional<std::string>& fullName,
                                        const std::optional<std::string>& licenceNumber, const std::string& now) {
    tx.query(kUpdateProfile).bind(fullName, licenceNumber, now, id).run();
}

void CompanionRepository::setEntitlement(db::Tx& tx, const std::string& id, const std::string& entitlement,
                                         const std::optional<std::string>& proExpiresAt, const std::string& now) {
    tx.query(kSetEntitlement).bind(entitlement, proExpiresAt, now, id).run();
}

void CompanionRepository::lockWorker(db::Tx& tx, const std::string& id) { tx.query(kLockWorker).bind(id).run(); }

std::int64_t CompanionRepository::exportWorkers(const std::optional<std::string>& search, const std::optional<std::string>& tier,
                                               const db::Keyset& order, const std::function<void(const Worker&)>& onRow) {
    // No session held while the download waits on the network: readAll takes one per batch.
    const auto phrase = search ? db::trigramPhrase(*search) : std::nullopt;
    db::Where where(db_.dialect(), search && !phrase);
    if (search) {
        if (phrase && db_.dialect() == db::Dialect::SQLite) {
            where.add(kWhereWorkerSearchIndexed, {*phrase});
        } else {
            auto p = db::likePattern(*search);
            where.add(kWhereWorkerSearch, {p, p, p});
        }
    }
    if (tier) where.add(kWhereTier, {*tier});
    return db::readAll(db_, kWorkerColumns, where, order, [](const db::Row& r) { return readWorker(r); }, onRow);
}

db::Page<Worker> CompanionRepository::listWorkers(const ListQuery& query) {
    auto s = db_.session();
    const auto phrase = query.search ? db::trigramPhrase(*query.search) : std::nullopt;
    db::Where where(s, query.search && !phrase);
    if (query.search) {
        if (phrase && db::isSqlite(s)) {
            where.add(kWhereWorkerSearchIndexed, {*phrase});
        } else {
            auto p = db::likePattern(*query.search);
            where.add(kWhereWorkerSearch, {p, p, p});
        }
    }
    if (query.filter) where.add(kWhereTier, {*query.filter});
    if (!query.search && query.knownTotal) {
        db::Page<Worker> page;
        page.total = *query.knownTotal;
        page.items = db::deferredPageOf<Worker>(s, kWorkerColumns, kWorkerPageIds, "w.id", where, query, readWorker);
        return page;
    }
    if (!query.search || query.knownTotal)
        return db::countedPageOf<Worker>(s, kWorkerColumns, kWorkerColumnsCounted, kWorkerCount, where, query, readWorker);
    auto q = db::query(s, where.statement(std::string(kWorkerSearchPageOuter) + kWorkerSearchPageInner + where.sql() +
                                          (db::isSqlite(s) ? "" : kWorkerSearchPageFence) + kWorkerSearchPageMatchesEnd +
                                          query.orderBy + " LIMIT ? OFFSET ?" + kWorkerSearchPageJoin + query.orderBy));
    where.bindTo(q);
    db::Page<Worker> page;
    std::int64_t total = -1;
    page.items = q.bind(query.limit, query.offset).all([&](const db::Row& r) {
        total = r.int64("total_count");
        return readWorker(r);
    });
    page.total = total >= 0 ? total : query.offset == 0 ? 0 : db::countOf(s, kWorkerCount, where);
    return page;
}

CompanionCounts CompanionRepository::counts() {
    auto s = db_.session();
    auto row = db::query(s, kCompanionCounts).one([](const db::Row& r) {
        CompanionCounts c;
        c.workers.free = r.int64("workers_free");
        c.workers.pro = r.int64("workers_pro");
        c.certificates.draft = r.int64("certificates_draft");
        c.certificates.issued = r.int64("certificates_issued");
        return c;
    });
    if (!row) throw std::runtime_error("companion_counts has no row (migration 0012)");
    return *row;
}

TierCounts CompanionRepository::tierCounts() { return counts().workers; }

std::int64_t CompanionRepository::inactiveCount(const std::string& activeBefore) {
    auto s = db_.session();
    return db::query(s, kInactiveCount).bind(activeBefore).count();
}

// ---- the inactivity job ----

std::vector<CompanionRepository::InactiveWorker> CompanionRepository::workersToWarn(const std::string& activeBefore,
                                                                                      std::int64_t limit) {
    auto s = db_.session();
    return db::query(s, kToWarn).bind(activeBefore, limit).all([](const db::Row& r) {
        return InactiveWorker{r.text("id"), r.optText("email"), r.optText("full_name"), r.text("entitlement")};
    });
}

bool CompanionRepository::markWarned(db::Tx& tx, const std::string& id, const std::string& activeBefore, const std::string& now) {
    return tx.query(kMarkWarned).bind(now, id, activeBefore).changed() == 1;
}

std::vector<std::string> CompanionRepository::workersToDelete(const std::string& activeBefore, const std::string& warnedBy,
                                                               std::int64_t limit) {
    auto s = db_.session();
    return db::query(s, kToDelete).bind(activeBefore, warnedBy, limit).all([](const db::Row& r) { return r.text("id"); });
}

bool CompanionRepository::deleteInactiveWorker(db::Tx& tx, const std::string& id, const std::string& activeBefore,
                                               const std::string& warnedBy) {
    return tx.query(kDeleteInactive).bind(id, activeBefore, warnedBy).changed() == 1;
}

} // namespace storefront::companion

#include "companion/companion_repository.h"

#include "db/dialect.h"
#include "http/paging.h"

#include <Poco/String.h>

#include <regex>
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

// ---- certificates ----
#define CERTIFICATE_FIELDS                                                                                       \
    "SELECT CAST(c.id AS TEXT) AS id, CAST(c.worker_id AS TEXT) AS worker_id, c.certificate_number, "             \
    "c.site_location, c.status, CAST(c.created_at AS TEXT) AS created_at, CAST(c.updated_at AS TEXT) AS updated_at, " \
    "CAST(c.issued_at AS TEXT) AS issued_at, w.full_name AS worker_name, w.email AS worker_email"
#define CERTIFICATE_FROM " FROM certificates c JOIN worker_profiles w ON w.id = c.worker_id"
#define CERTIFICATE_COLUMNS CERTIFICATE_FIELDS CERTIFICATE_FROM

constexpr const char* kCertificateColumns = CERTIFICATE_COLUMNS;
constexpr const char* kCertificateColumnsCounted = CERTIFICATE_FIELDS ", COUNT(*) OVER () AS total_count" CERTIFICATE_FROM;
constexpr const char* kCertificateById = CERTIFICATE_COLUMNS " WHERE c.id = ? AND c.worker_id = ?";
constexpr const char* kCertificateCount = "SELECT COUNT(*) FROM certificates c";
// The worker part is one subquery (the matching workers, found once), not a LIKE per joined row.
constexpr const char* kWhereCertificateSearch =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\' "
    "OR c.worker_id IN (SELECT sw.id FROM worker_profiles sw WHERE LOWER(sw.full_name) LIKE ? ESCAPE '\\' "
    "OR LOWER(sw.email) LIKE ? ESCAPE '\\'))";
// A whole certificate number (WW-2026-000123, any case): the unique index finds it.
constexpr const char* kWhereCertificateNumber = "c.certificate_number = ?";
// The indexed search (terms of three or more characters), in parts, so that each part uses its
// index on both engines: the certificate's own columns, then the certificates of workers whose
// name or email matches (usually none: a site or a number is not in a name).
// The counts of a search are capped (http::kSearchTotalCap): each part is counted as
// SELECT COUNT(*) FROM (<rows> LIMIT n), which stops after n matches.
constexpr const char* kCertificateOwnMatchRowsIndexed = "SELECT 1 FROM certificates_search";
constexpr const char* kWhereCertificateOwnMatchIndexed = "certificates_search MATCH ?";
constexpr const char* kCertificateRows = "SELECT 1 FROM certificates c";
// A term of one or two characters has no trigram: its count is a scan, first of the certificates'
// own columns in the first 50,000 rows (a probe). A digit or a common letter reaches the cap there
// (`7`: 10,001 matches within about 27,000 rows), so neither the rest of the table nor the workers
// are read, and at least a fifth of the probed rows match, which bounds the walk of a page.
constexpr const char* kCertificateProbeRows = "SELECT 1 FROM (SELECT * FROM certificates LIMIT 50000) c";
// Filtered: the index's matches joined to their rows, streamed (not `rowid IN (...)`, which
// collects every match first), so the count stops after the cap. CROSS JOIN fixes the order in
// SQLite: without statistics the planner may otherwise drive from the status index and run the
// phrase query once per certificate (seconds for 10,000 rows).
constexpr const char* kCertificateOwnMatchRowsIndexedJoined =
    "SELECT 1 FROM certificates_search CROSS JOIN certificates c ON c.rowid = certificates_search.rowid";
constexpr const char* kWhereCertificateOwnIndexed =
    "c.rowid IN (SELECT rowid FROM certificates_search WHERE certificates_search MATCH ?)";
constexpr const char* kWhereCertificateOwnLike =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\')";
constexpr const char* kWorkerNameMatchCountIndexed =
    "SELECT COUNT(*) FROM worker_profiles_search WHERE worker_profiles_search MATCH ?";
constexpr const char* kWorkerNameMatchCountLike =
    "SELECT COUNT(*) FROM worker_profiles sw WHERE LOWER(sw.full_name) LIKE ? ESCAPE '\\' OR LOWER(sw.email) LIKE ? ESCAPE '\\'";
// Certificates found through their worker and not through their own columns (so that adding the
// two counts counts each certificate once). LIKE on NULL is NULL, hence the COALESCEs.
constexpr const char* kCertificateByWorkerOnlyRows =
    "SELECT 1 FROM certificates c JOIN worker_profiles sw ON sw.id = c.worker_id";
// When no certificate matched by its own columns, the worker part is all of those workers'
// certificates: counted from certificates_worker_id_created_at_idx alone.
constexpr const char* kWhereCertificateByWorkerIndexed =
    "c.worker_id IN (SELECT sw.id FROM worker_profiles sw WHERE sw.rowid IN "
    "(SELECT rowid FROM worker_profiles_search WHERE worker_profiles_search MATCH ?))";
constexpr const char* kWhereCertificateByWorkerLike =
    "c.worker_id IN (SELECT sw.id FROM worker_profiles sw "
    "WHERE LOWER(sw.full_name) LIKE ? ESCAPE '\\' OR LOWER(sw.email) LIKE ? ESCAPE '\\')";
constexpr const char* kWhereNotOwnMatch =
    "NOT (COALESCE(LOWER(c.certificate_number) LIKE ? ESCAPE '\\', FALSE) "
    "OR COALESCE(LOWER(c.site_location) LIKE ? ESCAPE '\\', FALSE))";
constexpr const char* kWhereWorkerNameIndexed =
    "sw.rowid IN (SELECT rowid FROM worker_profiles_search WHERE worker_profiles_search MATCH ?)";
constexpr const char* kWhereWorkerNameLike =
    "(LOWER(sw.full_name) LIKE ? ESCAPE '\\' OR LOWER(sw.email) LIKE ? ESCAPE '\\')";
// A page of a narrow search: the matches through the indexes, then sorted.
constexpr const char* kWhereCertificateIndexed =
    "(c.rowid IN (SELECT rowid FROM certificates_search WHERE certificates_search MATCH ?) "
    "OR c.worker_id IN (SELECT sw.id FROM worker_profiles sw WHERE sw.rowid IN "
    "(SELECT rowid FROM worker_profiles_search WHERE worker_profiles_search MATCH ?)))";
constexpr const char* kWhereCertificateUnion =
    "c.id IN (SELECT x.id FROM certificates x WHERE LOWER(x.certificate_number) LIKE ? ESCAPE '\\' "
    "OR LOWER(x.site_location) LIKE ? ESCAPE '\\' UNION SELECT x.id FROM certificates x JOIN worker_profiles sw "
    "ON sw.id = x.worker_id WHERE LOWER(sw.full_name) LIKE ? ESCAPE '\\' OR LOWER(sw.email) LIKE ? ESCAPE '\\')";
// A page of a broad search walks the sort's index and tests each row when that reads fewer rows
// than this; it stops after one page of matches. The workers are found through their index
// first, not by a LIKE per worker.
constexpr std::int64_t kCertificateWalkRows = 10000;
constexpr const char* kWhereCertificateWalkIndexed =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\' "
    "OR c.worker_id IN (SELECT sw.id FROM worker_profiles sw WHERE sw.rowid IN "
    "(SELECT rowid FROM worker_profiles_search WHERE worker_profiles_search MATCH ?)))";
// The walk's worker part for a term with no trigram (one or two characters): the row's own worker
// looked up by its key, and only for a row whose own columns did not match. A walk is chosen only
// when it reads few rows (searchCertificates), so this is a few thousand key lookups at most, where
// `IN (SELECT ...)` would scan all 100,000 workers before the first row could be returned. A scalar
// subquery, not EXISTS: PostgreSQL turns an EXISTS into that same hashed scan of the workers
// (`ki`, first page: 54 ms, 14 ms as written here).
constexpr const char* kWhereCertificateWalkLike =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\' "
    "OR (SELECT LOWER(sw.full_name) LIKE ? ESCAPE '\\' OR LOWER(sw.email) LIKE ? ESCAPE '\\' "
    "FROM worker_profiles sw WHERE sw.id = c.worker_id))";
constexpr const char* kWhereOwnCertificateSearch =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\')";
constexpr const char* kWhereStatus = "c.status = ?";
// The same test kept off the status index (SQLite's unary plus), for a scan that reads the rows in
// table order.
constexpr const char* kWhereStatusScanned = "+c.status = ?";
// A deep page (OFFSET at least this) chooses its ids first, from the sort's index alone (every
// sort has an (expression, id) index), and joins the worker and reads the columns for the page's
// rows only: the skipped rows are index entries, not joined rows.
constexpr std::int64_t kDeferredJoinOffset = 500;
constexpr const char* kCertificatePageIds = "SELECT c.id FROM certificates c";
constexpr const char* kWhereWorker = "c.worker_id = ?";
constexpr const char* kWorkerCertificateCount = "SELECT COUNT(*) FROM certificates WHERE worker_id = ?";
constexpr const char* kInsertCertificate =
    "INSERT INTO certificates (id, worker_id, certificate_number, site_location, status, created_at, updated_at, issued_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUpdateDraft =
    "UPDATE certificates SET site_location = ?, updated_at = ? WHERE id = ? AND worker_id = ? AND status = 'draft'";
constexpr const char* kIssue =
    "UPDATE certificates SET status = 'issued', certificate_number = ?, issued_at = ?, updated_at = ? "
    "WHERE id = ? AND worker_id = ? AND status = 'draft'";
constexpr const char* kNextNumber =
    "INSERT INTO certificate_number_counters (number_year, last_value) VALUES (?, 1) ON CONFLICT (number_year) "
    "DO UPDATE SET last_value = certificate_number_counters.last_value + 1 RETURNING last_value";

// ---- promo codes ----
#define PROMO_COLUMNS                                                                                           \
    "SELECT CAST(id AS TEXT) AS id, code, description, entitlement, duration_months, max_uses, uses_count, "     \
    "CAST(expires_at AS TEXT) AS expires_at, CASE WHEN active THEN 1 ELSE 0 END AS active, "                    \
    "CAST(created_at AS TEXT) AS created_at FROM promo_codes"

constexpr const char* kPromoById = PROMO_COLUMNS " WHERE id = ?";
constexpr const char* kPromoByCode = PROMO_COLUMNS " WHERE code = ?";
// promo_codes_created_at_idx serves this order.
constexpr const char* kPromoPage = PROMO_COLUMNS " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?";
constexpr const char* kPromoCount = "SELECT COUNT(*) FROM promo_codes";
constexpr const char* kInsertPromo =
    "INSERT INTO promo_codes (id, code, description, entitlement, duration_months, max_uses, uses_count, expires_at, "
    "active, created_by, created_at) VALUES (?, ?, ?, 'pro', ?, ?, 0, ?, TRUE, ?, ?)";
constexpr const char* kSetPromoActive = "UPDATE promo_codes SET active = ? WHERE id = ?";
// The one statement that decides a use: concurrent redemptions queue on the row and each
// re-checks uses_count, so max_uses is never passed.
constexpr const char* kClaimPromo =
    "UPDATE promo_codes SET uses_count = uses_count + 1 WHERE code = ? AND active = TRUE "
    "AND (max_uses IS NULL OR uses_count < max_uses) AND (expires_at IS NULL OR expires_at > ?) "
    "RETURNING CAST(id AS TEXT) AS id, duration_months";
constexpr const char* kHasRedeemed =
    "SELECT 1 FROM promo_code_redemptions WHERE promo_code_id = ? AND worker_id = ?";
constexpr const char* kInsertRedemption =
    "INSERT INTO promo_code_redemptions (id, promo_code_id, worker_id, redeemed_at) VALUES (?, ?, ?, ?)";
constexpr const char* kRedemptionCount = "SELECT COUNT(*) FROM promo_code_redemptions";

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
constexpr const char* kTakeLease =
    "INSERT INTO job_leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
    "SET holder = excluded.holder, expires_at = excluded.expires_at "
    "WHERE job_leases.expires_at < ? OR job_leases.holder = excluded.holder";
constexpr const char* kReleaseLease = "DELETE FROM job_leases WHERE name = ? AND holder = ?";
constexpr const char* kAdvisoryLock = "SELECT 1 AS locked WHERE pg_try_advisory_lock(CAST(? AS BIGINT))";
constexpr const char* kAdvisoryUnlock = "SELECT pg_advisory_unlock(CAST(? AS BIGINT))";

// The column lists above are macros only to be joined into constants at compile time; they end
// here (the sanitizer build compiles sources in batches).
#undef WORKER_FIELDS
#undef WORKER_COLUMNS
#undef CERTIFICATE_FIELDS
#undef CERTIFICATE_FROM
#undef CERTIFICATE_COLUMNS
#undef PROMO_COLUMNS

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

Certificate readCertificate(const db::Row& r) {
    Certificate c;
    c.id = r.text("id");
    c.workerId = r.text("worker_id");
    c.number = r.optText("certificate_number");
    c.siteLocation = r.optText("site_location");
    c.status = r.text("status");
    c.createdAt = r.timestamp("created_at");
    c.updatedAt = r.timestamp("updated_at");
    c.issuedAt = r.optTimestamp("issued_at");
    c.workerName = r.optText("worker_name");
    c.workerEmail = r.optText("worker_email");
    return c;
}

PromoCode readPromo(const db::Row& r) {
    PromoCode p;
    p.id = r.text("id");
    p.code = r.text("code");
    p.description = r.text("description");
    p.entitlement = r.text("entitlement");
    p.durationMonths = r.optInt64("duration_months");
    p.maxUses = r.optInt64("max_uses");
    p.usesCount = r.int64("uses_count");
    p.expiresAt = r.optTimestamp("expires_at");
    p.active = r.int64("active") == 1;
    p.createdAt = r.timestamp("created_at");
    return p;
}

// A WHERE clause and its bound values, in order; its LIKEs as the session's engine runs them
// fastest (db::lowerLike). `planPerCall` for a search by a term with no trigram: PostgreSQL then
// plans each statement for the term (db::kPlanPerCall), where a generic plan would read a pg_trgm
// index that cannot narrow a one- or two-character pattern (`ki`: 182 ms, 53 ms planned per call).
// Longer terms keep their prepared plans: the trigram index a generic plan uses is right for them
// (planned per call they were no faster; the difference was within the bench's noise).
struct Where {
    explicit Where(Poco::Data::Session& s, bool planPerCall = false) : sqlite(db::isSqlite(s)), perCall(planPerCall) {}
    bool sqlite, perCall;
    std::string sql;
    std::vector<std::string> values;
    void add(const char* clause, std::initializer_list<std::string> bound) {
        sql += (sql.empty() ? " WHERE " : " AND ") + db::lowerLike(sqlite, clause);
        values.insert(values.end(), bound);
    }
    std::string statement(const std::string& text) const { return perCall ? std::string(db::kPlanPerCall) + text : text; }
    void bindTo(db::Query& q) const {
        for (const auto& v : values) q.bind(v);
    }
};

// "WW-2026-000123" in any case: a whole certificate number.
bool isCertificateNumber(const std::string& term) {
    static const std::regex number(R"(\s*[Ww][Ww]-\d{4}-\d{6,}\s*)");
    return std::regex_match(term, number);
}

std::int64_t countOf(Poco::Data::Session& s, const std::string& sql, const Where& where) {
    auto q = db::query(s, where.statement(sql + where.sql));
    where.bindTo(q);
    return q.count();
}

// How many rows `rowsSql` + `where` has, counting at most `limit` of them.
std::int64_t cappedCountOf(Poco::Data::Session& s, const std::string& rowsSql, const Where& where, std::int64_t limit) {
    auto q = db::query(s, where.statement("SELECT COUNT(*) FROM (" + rowsSql + where.sql + " LIMIT ?) capped_rows"));
    where.bindTo(q);
    return q.bind(limit).count();
}

template <class T>
void setCappedTotal(Page<T>& page, std::int64_t counted) {
    page.totalCapped = counted > http::kSearchTotalCap;
    page.total = page.totalCapped ? http::kSearchTotalCap : counted;
}

template <class T, class Map>
std::vector<T> pageOf(Poco::Data::Session& s, const std::string& sql, const Where& where, const ListQuery& query, Map map) {
    auto q = db::query(s, where.statement(sql + where.sql + " ORDER BY " + query.orderBy + " LIMIT ? OFFSET ?"));
    where.bindTo(q);
    return q.bind(query.limit, query.offset).all(map);
}

// One page in the query's order. A deep page (OFFSET at least kDeferredJoinOffset) chooses its
// ids first (`idsSql`, "SELECT x.id FROM table x", with the same WHERE) from the sort's index alone
// and reads `columns` for the page's rows only: the rows OFFSET skips are index entries, not joined
// rows with their select lists computed.
template <class T, class Map>
std::vector<T> deferredPageOf(Poco::Data::Session& s, const std::string& columns, const char* idsSql, const char* idColumn,
                              const Where& where, const ListQuery& query, Map map) {
    if (query.offset < kDeferredJoinOffset) return pageOf<T>(s, columns, where, query, map);
    auto q = db::query(s, where.statement(columns + " WHERE " + idColumn + " IN (" + idsSql + where.sql + " ORDER BY " +
                                          query.orderBy + " LIMIT ? OFFSET ?) ORDER BY " + query.orderBy));
    where.bindTo(q);
    return q.bind(query.limit, query.offset).all(map);
}

std::vector<Certificate> certificatePageOf(Poco::Data::Session& s, const Where& where, const ListQuery& query) {
    return deferredPageOf<Certificate>(s, kCertificateColumns, kCertificatePageIds, "c.id", where, query, readCertificate);
}

// One page and the number of matching rows: from the caller when it knows it, else from the page
// query's COUNT(*) OVER () (one scan for a search; `columnsCounted`), else counted on its own.
template <class T, class Map>
Page<T> countedPageOf(Poco::Data::Session& s, const char* columns, const char* columnsCounted, const char* countSql,
                      const Where& where, const ListQuery& query, Map map) {
    Page<T> page;
    if (query.knownTotal) {
        page.total = *query.knownTotal;
        page.items = pageOf<T>(s, columns, where, query, map);
        return page;
    }
    if (!columnsCounted) {
        page.total = countOf(s, countSql, where);
        page.items = pageOf<T>(s, columns, where, query, map);
        return page;
    }
    std::int64_t total = -1;
    page.items = pageOf<T>(s, columnsCounted, where, query, [&](const db::Row& r) {
        total = r.int64("total_count");
        return map(r);
    });
    page.total = total >= 0 ? total : query.offset == 0 ? 0 : countOf(s, countSql, where);
    return page;
}

} // namespace

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

Page<Worker> CompanionRepository::listWorkers(const ListQuery& query) {
    auto s = db_.session();
    const auto phrase = query.search ? http::trigramPhrase(*query.search) : std::nullopt;
    Where where(s, query.search && !phrase);
    if (query.search) {
        if (phrase && db::isSqlite(s)) {
            where.add(kWhereWorkerSearchIndexed, {*phrase});
        } else {
            auto p = http::likePattern(*query.search);
            where.add(kWhereWorkerSearch, {p, p, p});
        }
    }
    if (query.filter) where.add(kWhereTier, {*query.filter});
    if (!query.search && query.knownTotal) {
        Page<Worker> page;
        page.total = *query.knownTotal;
        page.items = deferredPageOf<Worker>(s, kWorkerColumns, kWorkerPageIds, "w.id", where, query, readWorker);
        return page;
    }
    if (!query.search || query.knownTotal)
        return countedPageOf<Worker>(s, kWorkerColumns, kWorkerColumnsCounted, kWorkerCount, where, query, readWorker);
    auto q = db::query(s, where.statement(std::string(kWorkerSearchPageOuter) + kWorkerSearchPageInner + where.sql +
                                          (db::isSqlite(s) ? "" : kWorkerSearchPageFence) + kWorkerSearchPageMatchesEnd +
                                          query.orderBy + " LIMIT ? OFFSET ?" + kWorkerSearchPageJoin + query.orderBy));
    where.bindTo(q);
    Page<Worker> page;
    std::int64_t total = -1;
    page.items = q.bind(query.limit, query.offset).all([&](const db::Row& r) {
        total = r.int64("total_count");
        return readWorker(r);
    });
    page.total = total >= 0 ? total : query.offset == 0 ? 0 : countOf(s, kWorkerCount, where);
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

// ---- certificates ----

Page<Certificate> CompanionRepository::listCertificates(const ListQuery& query) {
    auto s = db_.session();
    Where where(s);
    if (query.search && !isCertificateNumber(*query.search)) return searchCertificates(s, query);
    if (query.search) where.add(kWhereCertificateNumber, {Poco::toUpper(Poco::trim(*query.search))});
    if (query.filter) where.add(kWhereStatus, {*query.filter});
    Page<Certificate> page;
    if (!query.search) {
        page.total = query.knownTotal ? *query.knownTotal : countOf(s, kCertificateCount, where);
        page.items = certificatePageOf(s, where, query);
        return page;
    }
    // A whole number: at most one row, through the unique index.
    setCappedTotal(page, cappedCountOf(s, kCertificateRows, where, http::kSearchTotalCap + 1));
    if (page.total > 0 && query.offset < page.total) page.items = certificatePageOf(s, where, query);
    return page;
}

// A substring search: counted up to the cap, then one page either by walking the sort's index (a
// broad term: a page of matches comes quickly) or from the matches (a narrow term).
// A term of three or more characters is counted in two parts (the certificates' own columns; those
// found through their worker only): on SQLite through the trigram tables of migration 0011, on
// PostgreSQL by the LIKE, which uses its pg_trgm indexes. The workers matching it are counted only
// when the own columns give fewer matches than wanted.
// A shorter term has no trigram and every part is a scan, so the parts are read only as far as they
// are needed: the own columns of a probe of rows first (`7`: 10,001 matches within the first few
// thousand rows, and the 100,000 workers are never read), else one scan of the certificates with
// the matching workers found once. Its walk looks each row's worker up by key (see
// kWhereCertificateWalkLike).
Page<Certificate> CompanionRepository::searchCertificates(Poco::Data::Session& s, const ListQuery& query) {
    const auto phrase = http::trigramPhrase(*query.search);
    const bool indexed = phrase && db::isSqlite(s);
    const auto p = http::likePattern(*query.search);
    const auto workerPhrase = indexed ? *http::trigramPhrase(*query.search, "{full_name email}") : std::string();

    // How many workers match by name or email, asked for once and only when needed.
    std::optional<std::int64_t> workerMatches;
    auto workers = [&] {
        if (!workerMatches)
            workerMatches = indexed ? db::query(s, kWorkerNameMatchCountIndexed).bind(workerPhrase).count()
                                    : db::query(s, db::lowerLike(db::isSqlite(s), kWorkerNameMatchCountLike)).bind(p, p).count();
        return *workerMatches;
    };
    // A short term's matches, counted up to `wanted`, each part read only as far as it is needed:
    // the own columns of the probe's rows; else, unfiltered, the certificates of the matching
    // workers (certificates_worker_id_idx alone); else one scan of the certificates with the
    // matching workers found once and the status tested first, not through its index (on SQLite,
    // reading rows in the status index's order cost twice the scan: 153 against 81 ms for `7`
    // among drafts).
    bool probeReached = false;
    auto countShortUpTo = [&](std::int64_t wanted) {
        Where own(s, !phrase);
        own.add(kWhereCertificateOwnLike, {p, p});
        if (query.filter) own.add(kWhereStatus, {*query.filter});
        probeReached = cappedCountOf(s, kCertificateProbeRows, own, wanted) >= wanted;
        if (probeReached) return wanted;
        if (!query.filter) {
            Where byWorker(s, !phrase);
            byWorker.add(kWhereCertificateByWorkerLike, {p, p});
            if (const auto counted = cappedCountOf(s, kCertificateRows, byWorker, wanted); counted >= wanted) return counted;
        }
        Where all(s, !phrase);
        if (query.filter) all.add(db::isSqlite(s) ? kWhereStatusScanned : kWhereStatus, {*query.filter});
        all.add(kWhereCertificateSearch, {p, p, p, p});
        return cappedCountOf(s, kCertificateRows, all, wanted);
    };
    // The matches, counted up to `wanted`: own columns first, then (while under it) the
    // certificates found through their worker only.
    auto countUpTo = [&](std::int64_t wanted) {
        if (!phrase) return countShortUpTo(wanted);
        std::int64_t counted = 0;
        Where own(s, !phrase);
        if (indexed) own.add(kWhereCertificateOwnMatchIndexed, {*phrase});
        else own.add(kWhereCertificateOwnLike, {p, p});
        if (query.filter) own.add(kWhereStatus, {*query.filter});
        const char* ownRows = !indexed            ? kCertificateRows
                              : query.filter ? kCertificateOwnMatchRowsIndexedJoined
                                             : kCertificateOwnMatchRowsIndexed;
        counted = cappedCountOf(s, ownRows, own, wanted);
        if (counted >= wanted || workers() == 0) return counted;
        if (counted == 0 && !query.filter) {
            Where byWorker(s, !phrase);
            if (indexed) byWorker.add(kWhereCertificateByWorkerIndexed, {workerPhrase});
            else byWorker.add(kWhereCertificateByWorkerLike, {p, p});
            return cappedCountOf(s, kCertificateRows, byWorker, wanted);
        }
        Where viaWorker(s, !phrase);
        if (indexed) viaWorker.add(kWhereWorkerNameIndexed, {workerPhrase});
        else viaWorker.add(kWhereWorkerNameLike, {p, p});
        viaWorker.add(kWhereNotOwnMatch, {p, p});
        if (query.filter) viaWorker.add(kWhereStatus, {*query.filter});
        return counted + cappedCountOf(s, kCertificateByWorkerOnlyRows, viaWorker, wanted - counted);
    };
    Page<Certificate> page;
    const auto counted = countUpTo(http::kSearchTotalCap + 1);
    setCappedTotal(page, counted);
    // Past the cap the pages go on (the total only says "10,000 or more").
    if (page.total == 0 || (!page.totalCapped && query.offset >= page.total)) return page;

    // Walk the sort's index when that reads fewer than kCertificateWalkRows rows: when there are
    // at least `needed` matches. A capped total may be short of that on a deep page: then the
    // matches are counted on up to `needed` only (the first pages of a broad search never need it).
    // A short term's count is a scan and is not counted on. When its probe reached the cap, at
    // least a fifth of the probed rows match (taken as the whole table's share), so a page within
    // the cap walks at most five times its offset plus one page (50,000 rows for page 200): the
    // walk is chosen for those pages.
    Where where(s, !phrase);
    const auto scope = query.scopeRows.value_or(0);
    std::int64_t matches = counted;
    const std::int64_t needed = ((query.offset + query.limit) * scope + kCertificateWalkRows - 1) / kCertificateWalkRows;
    if (phrase && scope > 0 && page.totalCapped && needed > counted) matches = countUpTo(needed);
    const bool walk = scope > 0 && ((probeReached && query.offset + query.limit <= http::kSearchTotalCap) ||
                                    (query.offset + query.limit) * scope <= kCertificateWalkRows * matches);
    if (walk) {
        if (phrase && workers() == 0) where.add(kWhereCertificateOwnLike, {p, p});
        else if (indexed) where.add(kWhereCertificateWalkIndexed, {p, p, workerPhrase});
        else if (!phrase) where.add(kWhereCertificateWalkLike, {p, p, p, p});
        else where.add(kWhereCertificateSearch, {p, p, p, p});
    } else if (!phrase) {
        // A short narrow term: a scan of the certificates, the matching workers found once.
        where.add(kWhereCertificateSearch, {p, p, p, p});
    } else if (workers() == 0) {
        if (indexed) where.add(kWhereCertificateOwnIndexed, {*phrase});
        else where.add(kWhereCertificateOwnLike, {p, p});
    } else if (indexed) {
        where.add(kWhereCertificateIndexed, {*phrase, workerPhrase});
    } else {
        where.add(kWhereCertificateUnion, {p, p, p, p});
    }
    if (query.filter) where.add(kWhereStatus, {*query.filter});
    page.items = certificatePageOf(s, where, query);
    return page;
}

Page<Certificate> CompanionRepository::listWorkerCertificates(const std::string& workerId, const ListQuery& query) {
    auto s = db_.session();
    Where where(s);
    where.add(kWhereWorker, {workerId});
    if (query.search) {
        auto p = http::likePattern(*query.search);
        where.add(kWhereOwnCertificateSearch, {p, p});
    }
    if (query.filter) where.add(kWhereStatus, {*query.filter});
    return countedPageOf<Certificate>(s, kCertificateColumns, kCertificateColumnsCounted, kCertificateCount, where, query,
                                      readCertificate);
}

StatusCounts CompanionRepository::statusCounts() { return counts().certificates; }

std::optional<Certificate> CompanionRepository::findCertificate(const std::string& id, const std::string& workerId) {
    auto s = db_.session();
    return db::query(s, kCertificateById).bind(id, workerId).one(readCertificate);
}

std::optional<Certificate> CompanionRepository::findCertificate(db::Tx& tx, const std::string& id, const std::string& workerId) {
    return tx.query(kCertificateById).bind(id, workerId).one(readCertificate);
}

std::int64_t CompanionRepository::certificateCount(db::Tx& tx, const std::string& workerId) {
    return tx.query(kWorkerCertificateCount).bind(workerId).count();
}

void CompanionRepository::insertCertificate(db::Tx& tx, const Certificate& c) {
    tx.query(kInsertCertificate)
        .bind(c.id, c.workerId, c.number, c.siteLocation, c.status, c.createdAt, c.updatedAt, c.issuedAt)
        .run();
}

bool CompanionRepository::updateDraft(db::Tx& tx, const std::string& id, const std::string& workerId,
                                      const std::optional<std::string>& siteLocation, const std::string& now) {
    return tx.query(kUpdateDraft).bind(siteLocation, now, id, workerId).changed() == 1;
}

bool CompanionRepository::issue(db::Tx& tx, const std::string& id, const std::string& workerId, const std::string& number,
                                const std::string& now) {
    return tx.query(kIssue).bind(number, now, now, id, workerId).changed() == 1;
}

std::int64_t CompanionRepository::nextCertificateNumber(db::Tx& tx, int year) {
    return tx.query(kNextNumber).bind(year).count();
}

// ---- promo codes ----

Page<PromoCode> CompanionRepository::listPromoCodes(std::int64_t limit, std::int64_t offset) {
    auto s = db_.session();
    Page<PromoCode> page;
    page.total = db::query(s, kPromoCount).count();
    page.items = db::query(s, kPromoPage).bind(limit, offset).all(readPromo);
    return page;
}

std::optional<PromoCode> CompanionRepository::findPromoCode(const std::string& id) {
    auto s = db_.session();
    return db::query(s, kPromoById).bind(id).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCode(db::Tx& tx, const std::string& id) {
    return tx.query(kPromoById).bind(id).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCodeByCode(const std::string& code) {
    auto s = db_.session();
    return db::query(s, kPromoByCode).bind(code).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCodeByCode(db::Tx& tx, const std::string& code) {
    return tx.query(kPromoByCode).bind(code).one(readPromo);
}

std::string CompanionRepository::insertPromoCode(db::Tx& tx, const NewPromoCode& c, const std::string& now) {
    auto id = db::newId();
    tx.query(kInsertPromo).bind(id, c.code, c.description, c.durationMonths, c.maxUses, c.expiresAt, c.createdBy, now).run();
    return id;
}

void CompanionRepository::setPromoCodeActive(db::Tx& tx, const std::string& id, bool active) {
    tx.query(kSetPromoActive).bind(active, id).run();
}

std::optional<ClaimedCode> CompanionRepository::claimPromoCode(db::Tx& tx, const std::string& code, const std::string& now) {
    return tx.query(kClaimPromo).bind(code, now).one([](const db::Row& r) {
        return ClaimedCode{r.text("id"), r.optInt64("duration_months")};
    });
}

bool CompanionRepository::hasRedeemed(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId) {
    return tx.query(kHasRedeemed).bind(promoCodeId, workerId).exists();
}

void CompanionRepository::insertRedemption(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId,
                                           const std::string& now) {
    tx.query(kInsertRedemption).bind(db::newId(), promoCodeId, workerId, now).run();
}

std::int64_t CompanionRepository::redemptionCount() {
    auto s = db_.session();
    return db::query(s, kRedemptionCount).count();
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

bool CompanionRepository::takeLease(const std::string& name, const std::string& holder, const std::string& expiresAt,
                                    const std::string& now) {
    bool taken = false;
    db_.write([&](db::Tx& tx) { taken = tx.query(kTakeLease).bind(name, holder, expiresAt, now).changed() == 1; });
    return taken;
}

void CompanionRepository::releaseLease(const std::string& name, const std::string& holder) {
    db_.write([&](db::Tx& tx) { tx.query(kReleaseLease).bind(name, holder).run(); });
}

bool CompanionRepository::tryAdvisoryLock(Poco::Data::Session& session, std::int64_t key) {
    return db::query(session, kAdvisoryLock).bind(key).exists();
}

void CompanionRepository::advisoryUnlock(Poco::Data::Session& session, std::int64_t key) {
    (void)db::query(session, kAdvisoryUnlock).bind(key).exists();
}

} // namespace storefront::companion

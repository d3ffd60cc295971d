// The staff certificate list's search planner: a substring search over the certificates' own
// columns and their workers' names and emails, counted up to db::kSearchTotalCap and paged either
// by walking the sort's index (a broad term) or from the matches (a narrow one), on both engines.
#include "companion/certificate_sql.h"

#include <Poco/String.h>

#include <regex>

namespace storefront::companion {

namespace {

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
// The counts of a search are capped (db::kSearchTotalCap): each part is counted as
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
// The same test kept off the status index (SQLite's unary plus), for a scan that reads the rows in
// table order.
constexpr const char* kWhereStatusScanned = "+c.status = ?";

// "WW-2026-000123" in any case: a whole certificate number.
bool isCertificateNumber(const std::string& term) {
    static const std::regex number(R"(\s*[Ww][Ww]-\d{4}-\d{6,}\s*)");
    return std::regex_match(term, number);
}

} // namespace

// The export reads every match, so there is no page to plan: the whole number through its unique
// index, else the search in one predicate (the trigram indexes on SQLite for three or more
// characters, the LIKEs and their pg_trgm indexes on PostgreSQL).
std::int64_t CompanionRepository::exportCertificates(const std::optional<std::string>& search,
                                                     const std::optional<std::string>& status, const db::Keyset& order,
                                                     const std::function<void(const Certificate&)>& onRow) {
    // No session held while the download waits on the network: readAll takes one per batch.
    const auto phrase = search ? db::trigramPhrase(*search) : std::nullopt;
    db::Where where(db_.dialect(), search && !phrase);
    if (search && isCertificateNumber(*search)) {
        where.add(kWhereCertificateNumber, {Poco::toUpper(Poco::trim(*search))});
    } else if (search && phrase && db_.dialect() == db::Dialect::SQLite) {
        where.add(kWhereCertificateIndexed, {*phrase, *phrase});
    } else if (search) {
        auto p = db::likePattern(*search);
        where.add(kWhereCertificateSearch, {p, p, p, p});
    }
    if (status) where.add(certificate_sql::kWhereStatus, {*status});
    return db::readAll(db_, certificate_sql::kColumns, where, order,
                       [](const db::Row& r) { return certificate_sql::read(r); }, onRow);
}

db::Page<Certificate> CompanionRepository::listCertificates(const ListQuery& query) {
    auto s = db_.session();
    db::Where where(s);
    if (query.search && !isCertificateNumber(*query.search)) return searchCertificates(s, query);
    if (query.search) where.add(kWhereCertificateNumber, {Poco::toUpper(Poco::trim(*query.search))});
    if (query.filter) where.add(certificate_sql::kWhereStatus, {*query.filter});
    db::Page<Certificate> page;
    if (!query.search) {
        page.total = query.knownTotal ? *query.knownTotal : db::countOf(s, certificate_sql::kCount, where);
        page.items = certificate_sql::pageOf(s, where, query);
        return page;
    }
    // A whole number: at most one row, through the unique index.
    db::setCappedTotal(page, db::cappedCountOf(s, kCertificateRows, where, db::kSearchTotalCap + 1));
    if (page.total > 0 && query.offset < page.total) page.items = certificate_sql::pageOf(s, where, query);
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
db::Page<Certificate> CompanionRepository::searchCertificates(Poco::Data::Session& s, const ListQuery& query) {
    const auto phrase = db::trigramPhrase(*query.search);
    const bool indexed = phrase && db::isSqlite(s);
    const auto p = db::likePattern(*query.search);
    const auto workerPhrase = indexed ? *db::trigramPhrase(*query.search, "{full_name email}") : std::string();

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
        db::Where own(s, !phrase);
        own.add(kWhereCertificateOwnLike, {p, p});
        if (query.filter) own.add(certificate_sql::kWhereStatus, {*query.filter});
        probeReached = db::cappedCountOf(s, kCertificateProbeRows, own, wanted) >= wanted;
        if (probeReached) return wanted;
        if (!query.filter) {
            db::Where byWorker(s, !phrase);
            byWorker.add(kWhereCertificateByWorkerLike, {p, p});
            if (const auto counted = db::cappedCountOf(s, kCertificateRows, byWorker, wanted); counted >= wanted) return counted;
        }
        db::Where all(s, !phrase);
        if (query.filter) all.add(db::isSqlite(s) ? kWhereStatusScanned : certificate_sql::kWhereStatus, {*query.filter});
        all.add(kWhereCertificateSearch, {p, p, p, p});
        return db::cappedCountOf(s, kCertificateRows, all, wanted);
    };
    // The matches, counted up to `wanted`: own columns first, then (while under it) the
    // certificates found through their worker only.
    auto countUpTo = [&](std::int64_t wanted) {
        if (!phrase) return countShortUpTo(wanted);
        std::int64_t counted = 0;
        db::Where own(s, !phrase);
        if (indexed) own.add(kWhereCertificateOwnMatchIndexed, {*phrase});
        else own.add(kWhereCertificateOwnLike, {p, p});
        if (query.filter) own.add(certificate_sql::kWhereStatus, {*query.filter});
        const char* ownRows = !indexed            ? kCertificateRows
                              : query.filter ? kCertificateOwnMatchRowsIndexedJoined
                                             : kCertificateOwnMatchRowsIndexed;
        counted = db::cappedCountOf(s, ownRows, own, wanted);
        if (counted >= wanted || workers() == 0) return counted;
        if (counted == 0 && !query.filter) {
            db::Where byWorker(s, !phrase);
            if (indexed) byWorker.add(kWhereCertificateByWorkerIndexed, {workerPhrase});
            else byWorker.add(kWhereCertificateByWorkerLike, {p, p});
            return db::cappedCountOf(s, kCertificateRows, byWorker, wanted);
        }
        db::Where viaWorker(s, !phrase);
        if (indexed) viaWorker.add(kWhereWorkerNameIndexed, {workerPhrase});
        else viaWorker.add(kWhereWorkerNameLike, {p, p});
        viaWorker.add(kWhereNotOwnMatch, {p, p});
        if (query.filter) viaWorker.add(certificate_sql::kWhereStatus, {*query.filter});
        return counted + db::cappedCountOf(s, kCertificateByWorkerOnlyRows, viaWorker, wanted - counted);
    };
    db::Page<Certificate> page;
    const auto counted = countUpTo(db::kSearchTotalCap + 1);
    db::setCappedTotal(page, counted);
    // Past the cap the pages go on (the total only says "10,000 or more").
    if (page.total == 0 || (!page.totalCapped && query.offset >= page.total)) return page;

    // Walk the sort's index when that reads fewer than kCertificateWalkRows rows: when there are
    // at least `needed` matches. A capped total may be short of that on a deep page: then the
    // matches are counted on up to `needed` only (the first pages of a broad search never need it).
    // A short term's count is a scan and is not counted on. When its probe reached the cap, at
    // least a fifth of the probed rows match (taken as the whole table's share), so a page within
    // the cap walks at most five times its offset plus one page (50,000 rows for page 200): the
    // walk is chosen for those pages.
    db::Where where(s, !phrase);
    const auto scope = query.scopeRows.value_or(0);
    std::int64_t matches = counted;
    const std::int64_t needed = ((query.offset + query.limit) * scope + kCertificateWalkRows - 1) / kCertificateWalkRows;
    if (phrase && scope > 0 && page.totalCapped && needed > counted) matches = countUpTo(needed);
    const bool walk = scope > 0 && ((probeReached && query.offset + query.limit <= db::kSearchTotalCap) ||
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
    if (query.filter) where.add(certificate_sql::kWhereStatus, {*query.filter});
    page.items = certificate_sql::pageOf(s, where, query);
    return page;
}

} // namespace storefront::companion

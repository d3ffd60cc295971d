#include "companion/certificate_sql.h"

namespace storefront::companion {

namespace {

constexpr const char* kWhereOwnCertificateSearch =
    "(LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\')";
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

} // namespace

namespace certificate_sql {

Certificate read(const db::Row& r) {
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

std::vector<Certificate> pageOf(Poco::Data::Session& s, const db::Where& where, const db::PageQuery& query) {
    return db::deferredPageOf<Certificate>(s, kColumns, kPageIds, "c.id", where, query, read);
}

} // namespace certificate_sql

const db::SortColumns CompanionRepository::kCertificateSorts(
    {{"number", "c.certificate_number"}, {"status", "c.status"}, {"created", "c.created_at"}}, "c.id", "created");

db::Page<Certificate> CompanionRepository::listWorkerCertificates(const std::string& workerId, const ListQuery& query) {
    auto s = db_.session();
    db::Where where(s);
    where.add(kWhereWorker, {workerId});
    if (query.search) {
        auto p = db::likePattern(*query.search);
        where.add(kWhereOwnCertificateSearch, {p, p});
    }
    if (query.filter) where.add(certificate_sql::kWhereStatus, {*query.filter});
    return db::countedPageOf<Certificate>(s, certificate_sql::kColumns, certificate_sql::kColumnsCounted, certificate_sql::kCount, where, query,
                                      certificate_sql::read);
}

StatusCounts CompanionRepository::statusCounts() { return counts().certificates; }

std::optional<Certificate> CompanionRepository::findCertificate(const std::string& id, const std::string& workerId) {
    auto s = db_.session();
    return db::query(s, certificate_sql::kById).bind(id, workerId).one(certificate_sql::read);
}

std::optional<Certificate> CompanionRepository::findCertificate(db::Tx& tx, const std::string& id, const std::string& workerId) {
    return tx.query(certificate_sql::kById).bind(id, workerId).one(certificate_sql::read);
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

} // namespace storefront::companion

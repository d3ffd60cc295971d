#include "contact/submission_repository.h"

#include "db/search.h"

namespace storefront::contact {

namespace {

constexpr const char* kInsert =
    "INSERT INTO contact_submissions (id, name, email, company, phone, message, client_ip, created_at, user_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

// Staff columns; the handler's email from their account (NULL once it is closed).
constexpr const char* kEnquiryColumns =
    "SELECT CAST(c.id AS TEXT) AS id, c.name, c.email, c.company, c.phone, c.message, CAST(c.created_at AS TEXT) AS created_at, "
    "CAST(c.handled_at AS TEXT) AS handled_at, CAST(c.handled_by AS TEXT) AS handled_by, u.email AS handled_by_email "
    "FROM contact_submissions c LEFT JOIN users u ON u.id = c.handled_by";
constexpr const char* kEnquiryCount = "SELECT COUNT(*) FROM contact_submissions c";
constexpr const char* kEnquiryWhereHandled = "c.handled_at IS NOT NULL";
constexpr const char* kEnquiryWhereNotHandled = "c.handled_at IS NULL";
constexpr const char* kEnquiryWhereSearch =
    "(LOWER(c.name) LIKE ? ESCAPE '\\' OR LOWER(c.email) LIKE ? ESCAPE '\\' OR LOWER(c.company) LIKE ? ESCAPE '\\')";
// contact_submissions_created_at_idx (and the partial index of the unhandled ones) serve this order.
constexpr const char* kEnquiryNewestFirst = "c.created_at DESC, c.id DESC";
constexpr const char* kEnquirySetHandled = "UPDATE contact_submissions SET handled_at = ?, handled_by = ? WHERE id = ?";

Enquiry readEnquiryRow(const db::Row& r) {
    Enquiry e;
    e.id = r.text("id");
    e.name = r.text("name");
    e.email = r.text("email");
    e.company = r.optText("company");
    e.phone = r.optText("phone");
    e.message = r.text("message");
    e.createdAt = r.timestamp("created_at");
    e.handledAt = r.optTimestamp("handled_at");
    e.handledBy = r.optText("handled_by");
    e.handledByEmail = r.optText("handled_by_email");
    return e;
}

} // namespace

db::Page<Enquiry> SubmissionRepository::list(db::Database& db, const EnquiryFilter& filter, db::PageQuery page) {
    auto s = db.session();
    db::Where where(s);
    if (filter.handled) where.add(*filter.handled ? kEnquiryWhereHandled : kEnquiryWhereNotHandled, {});
    if (filter.q) {
        const auto like = db::likePattern(*filter.q);
        where.add(kEnquiryWhereSearch, {like, like, like});
    }
    page.orderBy = kEnquiryNewestFirst;
    return db::countedPageOf<Enquiry>(s, kEnquiryColumns, nullptr, kEnquiryCount, where, page, readEnquiryRow);
}

std::optional<Enquiry> SubmissionRepository::find(db::Tx& tx, const std::string& id) {
    return tx.query(std::string(kEnquiryColumns) + " WHERE c.id = ?").bind(id).one(readEnquiryRow);
}

void SubmissionRepository::setHandled(db::Tx& tx, const std::string& id, bool handled, const std::optional<std::string>& userId) {
    std::optional<std::string> at;
    std::optional<std::string> by;
    if (handled) {
        at = tx.clock().nowTimestamp();
        by = userId;
    }
    tx.query(kEnquirySetHandled).bind(at, by, id).run();
}

std::string SubmissionRepository::insert(db::Tx& tx, const ContactSubmission& s, const std::string& clientAddress,
                                         const std::optional<std::string>& createdAt,
                                         const std::optional<std::string>& senderId) {
    auto id = db::newId();
    tx.query(kInsert)
        .bind(id, s.name, s.email, s.company, s.phone, s.message, clientAddress, createdAt.value_or(tx.clock().nowTimestamp()),
              senderId)
        .run();
    return id;
}

} // namespace storefront::contact

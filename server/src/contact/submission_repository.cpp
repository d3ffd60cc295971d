#include "contact/submission_repository.h"

namespace storefront::contact {

namespace {

constexpr const char* kInsert =
    "INSERT INTO contact_submissions (id, name, email, company, phone, message, client_ip, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

} // namespace

std::string SubmissionRepository::insert(db::Tx& tx, const ContactSubmission& s, const std::string& clientAddress) {
    auto id = db::newId();
    tx.query(kInsert).bind(id, s.name, s.email, s.company, s.phone, s.message, clientAddress, tx.clock().nowTimestamp()).run();
    return id;
}

} // namespace storefront::contact

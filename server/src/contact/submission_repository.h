#pragma once
// SQL for contact submissions.
#include "contact/submission.h"
#include "db/database.h"
#include "db/list.h"

#include <optional>
#include <string>

namespace storefront::contact {

// An enquiry as staff see it (GET /api/v1/admin/enquiries).
struct Enquiry {
    std::string id, name, email, message, createdAt;
    std::optional<std::string> company, phone, handledAt, handledBy, handledByEmail;
};

struct EnquiryFilter {
    std::optional<bool> handled;
    std::optional<std::string> q; // part of the name, email or company
};

class SubmissionRepository {
public:
    // Stores the submission in `tx` (received now, or at `createdAt`: the demo's rows), with the
    // signed-in sender's account when there was one; returns its new id.
    std::string insert(db::Tx& tx, const ContactSubmission& submission, const std::string& clientAddress,
                       const std::optional<std::string>& createdAt = std::nullopt,
                       const std::optional<std::string>& senderId = std::nullopt);

    // The staff list, newest first.
    db::Page<Enquiry> list(db::Database& db, const EnquiryFilter& filter, db::PageQuery page);
    std::optional<Enquiry> find(db::Tx& tx, const std::string& id);
    // Sets (by `userId`, now) or clears the handled mark.
    void setHandled(db::Tx& tx, const std::string& id, bool handled, const std::optional<std::string>& userId);
};

} // namespace storefront::contact

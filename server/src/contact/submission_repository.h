#pragma once
// SQL for contact submissions.
#include "contact/submission.h"
#include "db/database.h"

#include <string>

namespace storefront::contact {

class SubmissionRepository {
public:
    // Stores the submission in `tx`; returns its new id.
    std::string insert(db::Tx& tx, const ContactSubmission& submission, const std::string& clientAddress);
};

} // namespace storefront::contact

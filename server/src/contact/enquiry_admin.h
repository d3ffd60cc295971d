#pragma once
// The staff's side of Contact Sales enquiries (docs/backoffice.md, "Enquiries"): the list, newest
// first, and the "Handled" mark.
#include "audit/audit.h"
#include "contact/submission_repository.h"
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <string>

namespace storefront::contact {

class EnquiryAdmin {
public:
    explicit EnquiryAdmin(db::Database& db) : db_(db) {}

    db::Page<Enquiry> list(const EnquiryFilter& filter, const db::PageQuery& page) { return submissions_.list(db_, filter, page); }

    // Marks the enquiry handled (by the actor, now) or not, with its audit entry
    // ("enquiry.handled" / "enquiry.unhandled") in the same transaction. The same mark again
    // changes nothing (no audit entry). 404 enquiry_not_found. Returns the enquiry as it now is.
    Enquiry setHandled(const audit::Actor& actor, const std::string& id, bool handled);

private:
    db::Database& db_;
    SubmissionRepository submissions_;
};

nlohmann::json toJson(const Enquiry& enquiry);

} // namespace storefront::contact

#pragma once
// The staff's side of the mail outbox (docs/backoffice.md, "Mail Outbox"): the list, newest first,
// without bodies, and "Retry now" for a failed mail.
#include "audit/audit.h"
#include "db/database.h"
#include "mail/outbox_repository.h"

#include <nlohmann/json.hpp>

#include <string>

namespace storefront::mail {

class OutboxAdmin {
public:
    explicit OutboxAdmin(db::Database& db) : db_(db), queue_(db) {}

    db::Page<OutboxEntry> list(const OutboxFilter& filter, const db::PageQuery& page) { return queue_.list(filter, page); }

    // A failed mail back to pending and due now, in one transaction with its audit entry
    // ("mail.retried"); the delivery job is woken after the commit. Its attempts are kept (the
    // count is every attempt ever made), so a retry that fails again is failed at once: one click,
    // one more attempt. 404 mail_not_found; 409 mail_not_failed for pending or sent mail.
    OutboxEntry retry(const audit::Actor& actor, const std::string& id);

private:
    db::Database& db_;
    OutboxRepository queue_;
};

nlohmann::json toJson(const OutboxEntry& entry);

} // namespace storefront::mail

#pragma once
// SQL for the durable mail queue (mail_outbox).
#include "db/database.h"
#include "db/list.h"
#include "mail/mail_message.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::mail {

struct StoredMail {
    MailMessage message;
    int attempts = 0;
};

// A row of the staff outbox list (GET /api/v1/admin/mail): never the body (an auth mail's body
// holds a link with a token).
struct OutboxEntry {
    std::string id, kind, to, subject, status, nextAttemptAt, createdAt;
    int attempts = 0;
    std::optional<std::string> lastError, sentAt;
};

struct OutboxFilter {
    std::optional<std::string> status; // pending | sent | failed
    std::optional<std::string> q;      // part of the recipient's address
};

class OutboxRepository {
public:
    explicit OutboxRepository(db::Database& db) : db_(db) {}

    // Stores `message` as pending in `tx`; returns its id.
    std::string insert(db::Tx& tx, const MailMessage& message, const std::optional<std::string>& contactSubmissionId);
    // Ids of pending mail that is due and not locked by a server, oldest due first.
    std::vector<std::string> due(int limit);
    // Locks the row for `lockSeconds` and counts the attempt; false when another server has it.
    bool claim(const std::string& id, int lockSeconds);
    std::optional<StoredMail> load(const std::string& id);
    void markSent(const std::string& id);
    // Records a failed attempt: pending again at `nextAttemptAt`, or failed for good.
    void markFailed(const std::string& id, bool giveUp, const std::string& nextAttemptAt, const std::string& error);

    // A row in a given state, for the local demo only (mail/demo.cpp): `status` sent, pending or failed.
    void insertDemo(db::Tx& tx, const MailMessage& message, const std::string& status, int attempts,
                    const std::optional<std::string>& lastError, const std::string& createdAt, const std::string& nextAttemptAt);
    // The staff list, newest first.
    db::Page<OutboxEntry> list(const OutboxFilter& filter, db::PageQuery page);
    std::optional<OutboxEntry> find(db::Tx& tx, const std::string& id);
    // A failed mail back to pending, due now (attempts kept); false when it is not failed.
    bool retry(db::Tx& tx, const std::string& id);

private:
    db::Database& db_;
};

} // namespace storefront::mail

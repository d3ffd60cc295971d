#pragma once
// SQL for the durable mail queue (mail_outbox).
#include "db/database.h"
#include "mail/mail_message.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::mail {

struct StoredMail {
    MailMessage message;
    int attempts = 0;
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

private:
    db::Database& db_;
};

} // namespace storefront::mail

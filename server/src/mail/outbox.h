#pragma once
// The durable mail queue. Mail is written to mail_outbox in the same transaction as what caused
// it, then delivered by a background job that retries with backoff. Nothing is lost when the
// relay is down; several servers can run the job at once (rows are claimed with a guarded UPDATE).
#include "db/database.h"
#include "mail/mail_message.h"
#include "mail/outbox_repository.h"
#include "mail/transport.h"

#include <optional>
#include <string>

namespace storefront::mail {

class Outbox {
public:
    // `subjectPrefix` goes before every message's subject ("TEST PAYMENTS: ", mail/settings.h).
    Outbox(db::Database& db, Transport& transport, std::string from, int retryIntervalSeconds, int maxAttempts,
           std::string subjectPrefix = "")
        : queue_(db), clock_(db.clock()), transport_(transport), from_(std::move(from)), retrySeconds_(retryIntervalSeconds),
          maxAttempts_(maxAttempts), subjectPrefix_(std::move(subjectPrefix)) {}

    // Stores `message` (its subject prefixed) inside the caller's transaction and wakes the delivery job once it has
    // committed (db::topic::kMail); returns the outbox id.
    std::string enqueue(db::Tx& tx, const MailMessage& message,
                        const std::optional<std::string>& contactSubmissionId = std::nullopt);

    // Delivers up to `limit` due messages; returns how many were sent.
    int deliverDue(int limit = 20);

    // Seconds before attempt number `attempts + 1`: retryInterval * 2^(attempts-1), capped at 6 h.
    static int backoffSeconds(int retryIntervalSeconds, int attempts);

private:
    static constexpr int kLockSeconds = 120; // a claimed message is another server's after this

    OutboxRepository queue_;
    const Clock& clock_;
    Transport& transport_;
    std::string from_;
    int retrySeconds_;
    int maxAttempts_;
    std::string subjectPrefix_;
};

} // namespace storefront::mail

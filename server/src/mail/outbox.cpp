#include "mail/outbox.h"

#include <Poco/Logger.h>

#include <algorithm>

namespace storefront::mail {

int Outbox::backoffSeconds(int retryIntervalSeconds, int attempts) {
    long long seconds = retryIntervalSeconds;
    for (int i = 1; i < attempts && seconds < 6 * 3600; ++i) seconds *= 2;
    return static_cast<int>(std::min<long long>(seconds, 6 * 3600));
}

std::string Outbox::enqueue(db::Tx& tx, const MailMessage& message, const std::optional<std::string>& contactSubmissionId) {
    if (!subjectPrefix_.empty() && !message.subject.starts_with(subjectPrefix_)) {
        auto prefixed = message;
        prefixed.subject = subjectPrefix_ + message.subject;
        auto id = queue_.insert(tx, prefixed, contactSubmissionId);
        tx.notify(db::topic::kMail);
        return id;
    }
    auto id = queue_.insert(tx, message, contactSubmissionId);
    tx.notify(db::topic::kMail);
    return id;
}

int Outbox::deliverDue(int limit) {
    int sent = 0;
    for (const auto& id : queue_.due(limit)) {
        if (!queue_.claim(id, kLockSeconds)) continue; // another server took it
        auto stored = queue_.load(id);
        if (!stored) continue;
        try {
            transport_.send(stored->message, from_, id);
            queue_.markSent(id);
            ++sent;
        } catch (const std::exception& e) {
            const bool giveUp = stored->attempts >= maxAttempts_;
            const auto error = std::string(e.what()).substr(0, 500);
            queue_.markFailed(id, giveUp, clock_.timestampAfter(backoffSeconds(retrySeconds_, stored->attempts)), error);
            Poco::Logger::get("mail").warning("mail %s attempt %d failed (%s): %s", id, stored->attempts,
                                              std::string(giveUp ? "failed" : "pending"), error);
        }
    }
    return sent;
}

} // namespace storefront::mail

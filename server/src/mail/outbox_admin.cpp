#include "mail/outbox_admin.h"

#include "http/api_error.h"

using storefront::http::ApiError;

namespace storefront::mail {

namespace {

template <typename T>
nlohmann::json outboxOrNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json toJson(const OutboxEntry& e) {
    // A sent mail has no next attempt.
    return {{"id", e.id},
            {"kind", e.kind},
            {"to", e.to},
            {"subject", e.subject},
            {"status", e.status},
            {"attempts", e.attempts},
            {"last_error", outboxOrNull(e.lastError)},
            {"next_attempt_at", e.status == "sent" ? nlohmann::json(nullptr) : nlohmann::json(e.nextAttemptAt)},
            {"created_at", e.createdAt},
            {"sent_at", outboxOrNull(e.sentAt)}};
}

OutboxEntry OutboxAdmin::retry(const audit::Actor& actor, const std::string& id) {
    OutboxEntry after;
    db_.write([&](db::Tx& tx) {
        auto before = queue_.find(tx, id);
        if (!before) throw ApiError::notFound("mail_not_found", "No such mail.");
        if (!queue_.retry(tx, id))
            throw ApiError(http::ErrorKind::Conflict, "mail_not_failed",
                           before->status == "sent" ? "This mail was sent already: only a failed mail can be retried."
                                                    : "This mail is still being delivered: only a failed mail can be retried.");
        after = *queue_.find(tx, id);
        audit::record(tx, actor, {"mail.retried", "mail", id, toJson(*before), toJson(after)});
        tx.notify(db::topic::kMail);
    });
    return after;
}

} // namespace storefront::mail

#include "mail/outbox_repository.h"

namespace storefront::mail {

namespace {

constexpr const char* kInsert =
    "INSERT INTO mail_outbox (id, kind, to_address, reply_to, subject, body_text, status, attempts, "
    "next_attempt_at, contact_submission_id, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)";
constexpr const char* kDue =
    "SELECT CAST(id AS TEXT) AS id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? "
    "AND (locked_until IS NULL OR locked_until < ?) ORDER BY next_attempt_at LIMIT ?";
// The claim: only one server's UPDATE matches while the row is unlocked.
constexpr const char* kClaim =
    "UPDATE mail_outbox SET locked_until = ?, attempts = attempts + 1 WHERE id = ? AND status = 'pending' "
    "AND (locked_until IS NULL OR locked_until < ?)";
constexpr const char* kLoad =
    "SELECT kind, to_address, reply_to, subject, body_text, attempts FROM mail_outbox WHERE id = ?";
constexpr const char* kSent =
    "UPDATE mail_outbox SET status = 'sent', sent_at = ?, locked_until = NULL, last_error = NULL WHERE id = ?";
constexpr const char* kRetry =
    "UPDATE mail_outbox SET status = ?, next_attempt_at = ?, locked_until = NULL, last_error = ? WHERE id = ?";

std::optional<std::string> nonEmpty(const std::string& text) {
    return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

} // namespace

std::string OutboxRepository::insert(db::Tx& tx, const MailMessage& m, const std::optional<std::string>& contactSubmissionId) {
    auto id = db::newId();
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsert).bind(id, m.kind, m.to, nonEmpty(m.replyTo), m.subject, m.text, at, contactSubmissionId, at).run();
    return id;
}

std::vector<std::string> OutboxRepository::due(int limit) {
    auto s = db_.session();
    const auto at = db_.clock().nowTimestamp();
    return db::query(s, kDue).bind(at, at, limit).all([](const db::Row& r) { return r.text("id"); });
}

bool OutboxRepository::claim(const std::string& id, int lockSeconds) {
    bool claimed = false;
    db_.write([&](db::Tx& tx) {
        claimed = tx.query(kClaim).bind(tx.clock().timestampAfter(lockSeconds), id, tx.clock().nowTimestamp()).changed() > 0;
    });
    return claimed;
}

std::optional<StoredMail> OutboxRepository::load(const std::string& id) {
    auto s = db_.session();
    return db::query(s, kLoad).bind(id).one([](const db::Row& r) {
        StoredMail m;
        m.message.kind = r.text("kind");
        m.message.to = r.text("to_address");
        m.message.replyTo = r.text("reply_to");
        m.message.subject = r.text("subject");
        m.message.text = r.text("body_text");
        m.attempts = static_cast<int>(r.int64("attempts"));
        return m;
    });
}

void OutboxRepository::markSent(const std::string& id) {
    db_.write([&](db::Tx& tx) { tx.query(kSent).bind(tx.clock().nowTimestamp(), id).run(); });
}

void OutboxRepository::markFailed(const std::string& id, bool giveUp, const std::string& nextAttemptAt, const std::string& error) {
    db_.write([&](db::Tx& tx) { tx.query(kRetry).bind(giveUp ? "failed" : "pending", nextAttemptAt, error, id).run(); });
}

} // namespace storefront::mail

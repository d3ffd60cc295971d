#include "mail/outbox_repository.h"

#include "db/search.h"

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

// The staff list: no body columns.
constexpr const char* kOutboxListColumns =
    "SELECT CAST(id AS TEXT) AS id, kind, to_address, subject, status, attempts, last_error, "
    "CAST(next_attempt_at AS TEXT) AS next_attempt_at, CAST(created_at AS TEXT) AS created_at, "
    "CAST(sent_at AS TEXT) AS sent_at FROM mail_outbox";
constexpr const char* kOutboxListCount = "SELECT COUNT(*) FROM mail_outbox";
constexpr const char* kOutboxWhereStatus = "status = ?";
constexpr const char* kOutboxWhereRecipient = "LOWER(to_address) LIKE ? ESCAPE '\\'";
// mail_outbox_created_at_idx serves this order.
constexpr const char* kOutboxNewestFirst = "created_at DESC, id DESC";
constexpr const char* kOutboxFindEntry =
    "SELECT CAST(id AS TEXT) AS id, kind, to_address, subject, status, attempts, last_error, "
    "CAST(next_attempt_at AS TEXT) AS next_attempt_at, CAST(created_at AS TEXT) AS created_at, "
    "CAST(sent_at AS TEXT) AS sent_at FROM mail_outbox WHERE id = ?";
// Retry now: due at once, unlocked; attempts and the last error stay until the next attempt.
constexpr const char* kOutboxRetryNow =
    "UPDATE mail_outbox SET status = 'pending', next_attempt_at = ?, locked_until = NULL WHERE id = ? AND status = 'failed'";

constexpr const char* kOutboxInsertDemo =
    "INSERT INTO mail_outbox (id, kind, to_address, subject, body_text, status, attempts, next_attempt_at, last_error, "
    "created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

OutboxEntry readOutboxEntry(const db::Row& r) {
    OutboxEntry e;
    e.id = r.text("id");
    e.kind = r.text("kind");
    e.to = r.text("to_address");
    e.subject = r.text("subject");
    e.status = r.text("status");
    e.attempts = static_cast<int>(r.int64("attempts"));
    e.lastError = r.optText("last_error");
    e.nextAttemptAt = r.timestamp("next_attempt_at");
    e.createdAt = r.timestamp("created_at");
    e.sentAt = r.optTimestamp("sent_at");
    return e;
}

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

void OutboxRepository::insertDemo(db::Tx& tx, const MailMessage& m, const std::string& status, int attempts,
                                  const std::optional<std::string>& lastError, const std::string& createdAt,
                                  const std::string& nextAttemptAt) {
    std::optional<std::string> sentAt;
    if (status == "sent") sentAt = nextAttemptAt;
    tx.query(kOutboxInsertDemo)
        .bind(db::newId(), m.kind, m.to, m.subject, m.text, status, attempts, nextAttemptAt, lastError, createdAt, sentAt)
        .run();
}

db::Page<OutboxEntry> OutboxRepository::list(const OutboxFilter& filter, db::PageQuery page) {
    auto s = db_.session();
    db::Where where(s);
    if (filter.status) where.add(kOutboxWhereStatus, {*filter.status});
    if (filter.q) where.add(kOutboxWhereRecipient, {db::likePattern(*filter.q)});
    page.orderBy = kOutboxNewestFirst;
    return db::countedPageOf<OutboxEntry>(s, kOutboxListColumns, nullptr, kOutboxListCount, where, page, readOutboxEntry);
}

std::optional<OutboxEntry> OutboxRepository::find(db::Tx& tx, const std::string& id) {
    return tx.query(kOutboxFindEntry).bind(id).one(readOutboxEntry);
}

bool OutboxRepository::retry(db::Tx& tx, const std::string& id) {
    return tx.query(kOutboxRetryNow).bind(tx.clock().nowTimestamp(), id).changed() > 0;
}

} // namespace storefront::mail

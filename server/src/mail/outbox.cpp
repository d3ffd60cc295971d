#include "mail/outbox.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/Logger.h>
#include <Poco/Nullable.h>
#include <Poco/Timestamp.h>

#include <algorithm>

using namespace Poco::Data::Keywords;

namespace storefront::mail {

namespace {

constexpr const char* kInsert =
    "INSERT INTO mail_outbox (id, kind, to_address, reply_to, subject, body_text, status, attempts, "
    "next_attempt_at, contact_submission_id, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)";
constexpr const char* kDue =
    "SELECT CAST(id AS TEXT) FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? "
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

} // namespace

int Outbox::backoffSeconds(int retryIntervalSeconds, int attempts) {
    long long seconds = retryIntervalSeconds;
    for (int i = 1; i < attempts && seconds < 6 * 3600; ++i) seconds *= 2;
    return static_cast<int>(std::min<long long>(seconds, 6 * 3600));
}

std::string Outbox::enqueue(Poco::Data::Session& session, const MailMessage& message,
                            const std::optional<std::string>& contactSubmissionId) {
    std::string id = db::newId(), at = db::nowTimestamp();
    std::string kind = message.kind, to = message.to, subject = message.subject, text = message.text;
    Poco::Nullable<std::string> replyTo, source;
    if (!message.replyTo.empty()) replyTo = message.replyTo;
    if (contactSubmissionId) source = *contactSubmissionId;
    session << db_.sql(kInsert), use(id), use(kind), use(to), use(replyTo), use(subject), use(text), use(at),
        use(source), use(at), now;
    return id;
}

int Outbox::deliverDue(int limit) {
    int sent = 0;
    std::vector<std::string> due;
    {
        auto s = db_.session();
        std::string nowAt = db::nowTimestamp();
        int max = limit;
        s << db_.sql(kDue), use(nowAt), use(nowAt), use(max), into(due), now;
    }
    for (const auto& rowId : due) {
        std::string id = rowId;
        std::string nowAt = db::nowTimestamp(), lockUntil = db::timestampAfter(120);
        std::size_t claimed = 0;
        db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
            Poco::Data::Statement st(s);
            st << db_.sql(kClaim), use(lockUntil), use(id), use(nowAt);
            claimed = st.execute();
        });
        if (claimed == 0) continue; // another server took it

        MailMessage message;
        int attempts = 0;
        {
            auto s = db_.session();
            Poco::Nullable<std::string> replyTo;
            s << db_.sql(kLoad), use(id), into(message.kind), into(message.to), into(replyTo), into(message.subject),
                into(message.text), into(attempts), now;
            if (!replyTo.isNull()) message.replyTo = replyTo.value();
        }
        try {
            transport_.send(message, from_);
            std::string sentAt = db::nowTimestamp();
            db_.write([&](db::Tx& tx) {
        auto& s = tx.session(); s << db_.sql(kSent), use(sentAt), use(id), now; });
            ++sent;
        } catch (const std::exception& e) {
            std::string status = attempts >= maxAttempts_ ? "failed" : "pending";
            std::string next = db::timestampAfter(backoffSeconds(retrySeconds_, attempts));
            std::string error = std::string(e.what()).substr(0, 500);
            db_.write([&](db::Tx& tx) {
        auto& s = tx.session(); s << db_.sql(kRetry), use(status), use(next), use(error), use(id), now; });
            Poco::Logger::get("mail").warning("mail %s attempt %d failed (%s): %s", id, attempts, status, error);
        }
    }
    return sent;
}

} // namespace storefront::mail

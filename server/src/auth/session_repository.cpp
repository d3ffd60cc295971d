#include "auth/session_repository.h"

namespace storefront::auth {

namespace {

constexpr const char* kInsertSession =
    "INSERT INTO auth_sessions (id, user_id, aal, amr, user_agent, ip, created_at, updated_at, refreshed_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kInsertToken =
    "INSERT INTO auth_refresh_tokens (id, session_id, token_hash, parent_hash, revoked, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, FALSE, ?, ?)";
constexpr const char* kLevel = "SELECT aal, amr FROM auth_sessions WHERE id = ?";
constexpr const char* kRemoveSession = "DELETE FROM auth_sessions WHERE id = ?";
constexpr const char* kRemoveForUser = "DELETE FROM auth_sessions WHERE user_id = ?";
constexpr const char* kRemoveAal2ForUser = "DELETE FROM auth_sessions WHERE user_id = ? AND aal = 'aal2'";
constexpr const char* kRemoveOthers = "DELETE FROM auth_sessions WHERE user_id = ? AND id <> ?";
constexpr const char* kFindToken =
    "SELECT CAST(t.id AS TEXT) AS id, CAST(t.session_id AS TEXT) AS session_id, t.revoked, t.child_sealed, "
    "CAST(s.user_id AS TEXT) AS user_id, s.aal, s.amr, CAST(s.created_at AS TEXT) AS session_created_at, "
    "CAST(s.refreshed_at AS TEXT) AS refreshed_at FROM auth_refresh_tokens t "
    "JOIN auth_sessions s ON s.id = t.session_id WHERE t.token_hash = ?";
constexpr const char* kRotate =
    "UPDATE auth_refresh_tokens SET revoked = TRUE, child_sealed = ?, updated_at = ? WHERE id = ? AND revoked = FALSE";
constexpr const char* kChildSealed = "SELECT child_sealed FROM auth_refresh_tokens WHERE id = ?";
constexpr const char* kActiveToken = "SELECT COUNT(*) FROM auth_refresh_tokens WHERE token_hash = ? AND revoked = FALSE";
constexpr const char* kRefreshed = "UPDATE auth_sessions SET refreshed_at = ?, updated_at = ? WHERE id = ?";
constexpr const char* kStepUp =
    "UPDATE auth_sessions SET aal = 'aal2', amr = ?, factor_id = ?, updated_at = ?, refreshed_at = ? WHERE id = ?";
constexpr const char* kRevokeTokens =
    "UPDATE auth_refresh_tokens SET revoked = TRUE, updated_at = ? WHERE session_id = ? AND revoked = FALSE";
constexpr const char* kSessionUser =
    "SELECT u.email, CAST(u.banned_until AS TEXT) AS banned_until, "
    "(SELECT COUNT(*) FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admins, "
    "(SELECT COUNT(*) FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS factors "
    "FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.user_id = ? AND u.deleted_at IS NULL";
constexpr const char* kPruneCreated = "DELETE FROM auth_sessions WHERE created_at < ?";
constexpr const char* kPruneRefreshed = "DELETE FROM auth_sessions WHERE refreshed_at < ?";

} // namespace

void SessionRepository::insert(db::Tx& tx, const NewSession& n) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertSession).bind(n.id, n.userId, n.aal, n.amr, n.userAgent, n.ip, at, at, at).run();
}

void SessionRepository::insertRefreshToken(db::Tx& tx, const std::string& sessionId, const std::string& tokenHash,
                                           const std::optional<std::string>& parentHash) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertToken).bind(db::newId(), sessionId, tokenHash, parentHash, at, at).run();
}

std::optional<std::pair<std::string, std::string>> SessionRepository::levelOf(Poco::Data::Session& s, const std::string& sessionId) {
    return db::query(s, kLevel).bind(sessionId).one([](const db::Row& r) { return std::make_pair(r.text("aal"), r.text("amr")); });
}

void SessionRepository::remove(db::Tx& tx, const std::string& sessionId) { tx.query(kRemoveSession).bind(sessionId).run(); }

void SessionRepository::removeForUser(db::Tx& tx, const std::string& userId, const std::optional<std::string>& except) {
    if (except) tx.query(kRemoveOthers).bind(userId, *except).run();
    else tx.query(kRemoveForUser).bind(userId).run();
}

std::int64_t SessionRepository::removeAal2ForUser(db::Tx& tx, const std::string& userId) {
    return static_cast<std::int64_t>(tx.query(kRemoveAal2ForUser).bind(userId).changed());
}

std::optional<RefreshTokenRow> SessionRepository::findRefreshToken(db::Tx& tx, const std::string& tokenHash) {
    return tx.query(kFindToken).bind(tokenHash).one([](const db::Row& r) {
        return RefreshTokenRow{r.text("id"),  r.text("session_id"), r.text("user_id"),
                               r.text("aal"), r.text("amr"),        r.timestamp("session_created_at"),
                               r.timestamp("refreshed_at"), r.boolean("revoked"), r.optText("child_sealed")};
    });
}

bool SessionRepository::rotate(db::Tx& tx, const std::string& tokenId, const std::string& childSealed) {
    return tx.query(kRotate).bind(childSealed, tx.clock().nowTimestamp(), tokenId).changed() == 1;
}

std::optional<std::string> SessionRepository::childSealed(db::Tx& tx, const std::string& tokenId) {
    return tx.query(kChildSealed).bind(tokenId).text();
}

bool SessionRepository::isActiveToken(db::Tx& tx, const std::string& tokenHash) {
    return tx.query(kActiveToken).bind(tokenHash).count() == 1;
}

void SessionRepository::markRefreshed(db::Tx& tx, const std::string& sessionId) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kRefreshed).bind(at, at, sessionId).run();
}

void SessionRepository::stepUp(db::Tx& tx, const std::string& sessionId, const std::string& amr, const std::string& factorId) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kStepUp).bind(amr, factorId, at, at, sessionId).run();
    tx.query(kRevokeTokens).bind(at, sessionId).run();
}

std::optional<SessionUser> SessionRepository::sessionUser(Poco::Data::Session& s, const std::string& sessionId,
                                                          const std::string& userId) {
    return db::query(s, kSessionUser).bind(sessionId, userId).one([](const db::Row& r) {
        return SessionUser{r.optText("email"), r.optTimestamp("banned_until"), r.int64("admins") > 0, r.int64("factors") > 0};
    });
}

void SessionRepository::pruneCreatedBefore(db::Tx& tx, const std::string& cutoff) { tx.query(kPruneCreated).bind(cutoff).run(); }

void SessionRepository::pruneRefreshedBefore(db::Tx& tx, const std::string& cutoff) {
    tx.query(kPruneRefreshed).bind(cutoff).run();
}

} // namespace storefront::auth

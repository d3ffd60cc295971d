#pragma once
// SQL for sessions and their rotating refresh tokens.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::auth {

struct NewSession {
    std::string id, userId, aal, amr, userAgent, ip;
};

// A refresh token with its session.
struct RefreshTokenRow {
    std::string id, sessionId, userId, aal, amr, sessionCreatedAt, refreshedAt;
    bool revoked = false;
    std::optional<std::string> childSealed;
};

// What every authenticated request needs to know about its session's user.
struct SessionUser {
    std::optional<std::string> email;
    std::optional<std::string> bannedUntil;
    bool staffAdmin = false;
    bool hasVerifiedFactor = false;
};

class SessionRepository {
public:
    void insert(db::Tx& tx, const NewSession& session);
    void insertRefreshToken(db::Tx& tx, const std::string& sessionId, const std::string& tokenHash,
                            const std::optional<std::string>& parentHash);
    // The session's level and its amr (JSON text).
    std::optional<std::pair<std::string, std::string>> levelOf(Poco::Data::Session& s, const std::string& sessionId);
    void remove(db::Tx& tx, const std::string& sessionId);
    // Every session of the user, or every one but `except`.
    void removeForUser(db::Tx& tx, const std::string& userId, const std::optional<std::string>& except);
    // Every aal2 session of the user (its two-factor step no longer stands); returns how many.
    std::int64_t removeAal2ForUser(db::Tx& tx, const std::string& userId);

    std::optional<RefreshTokenRow> findRefreshToken(db::Tx& tx, const std::string& tokenHash);
    // Revokes the token, keeping its child sealed; false when another request rotated it first.
    bool rotate(db::Tx& tx, const std::string& tokenId, const std::string& childSealed);
    std::optional<std::string> childSealed(db::Tx& tx, const std::string& tokenId);
    bool isActiveToken(db::Tx& tx, const std::string& tokenHash);
    void markRefreshed(db::Tx& tx, const std::string& sessionId);
    // The two-factor step: aal2, the new amr and factor; every refresh token of the session revoked.
    void stepUp(db::Tx& tx, const std::string& sessionId, const std::string& amr, const std::string& factorId);

    std::optional<SessionUser> sessionUser(Poco::Data::Session& s, const std::string& sessionId, const std::string& userId);
    // Deletes sessions created before `createdBefore` / not refreshed since `refreshedBefore`.
    void pruneCreatedBefore(db::Tx& tx, const std::string& cutoff);
    void pruneRefreshedBefore(db::Tx& tx, const std::string& cutoff);
};

} // namespace storefront::auth

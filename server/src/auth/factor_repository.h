#pragma once
// SQL for TOTP factors and their challenges.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::auth {

struct FactorSummary {
    std::string id, friendlyName, factorType, status, createdAt, updatedAt;
};

struct OwnFactor {
    std::string id, status, secret;
};

// A factor's id and its stored secret (sealed or, before encryption, plain).
struct StoredSecret {
    std::string id, secret;
};

struct ChallengeRow {
    std::int64_t attempts = 0;
    std::string expiresAt;
    std::optional<std::string> verifiedAt;
};

class FactorRepository {
public:
    // The user's factors, oldest first.
    std::vector<FactorSummary> list(Poco::Data::Session& s, const std::string& userId);
    std::optional<OwnFactor> own(Poco::Data::Session& s, const std::string& userId, const std::string& factorId);
    void dropUnverified(db::Tx& tx, const std::string& userId);
    std::int64_t count(db::Tx& tx, const std::string& userId);
    bool nameTaken(db::Tx& tx, const std::string& userId, const std::string& friendlyName);
    void insert(db::Tx& tx, const std::string& id, const std::string& userId, const std::optional<std::string>& friendlyName,
                const std::string& type, const std::string& secret);
    // Accepts the TOTP step if it is newer than the last one accepted (a code works once), and
    // marks the factor verified; false when it is not newer.
    bool spendStep(db::Tx& tx, const std::string& factorId, std::int64_t step);
    void remove(db::Tx& tx, const std::string& factorId);
    // One factor whose secret is sealed (the newest), to check the key at start-up.
    std::optional<StoredSecret> anySealed(Poco::Data::Session& s);
    // Up to `limit` factors whose secret is still plain text (written before encryption).
    std::vector<StoredSecret> plainSecrets(Poco::Data::Session& s, int limit);
    // Replaces the stored secret if it is still `before`; false when another writer changed it.
    bool replaceSecret(db::Tx& tx, const std::string& factorId, const std::string& before, const std::string& after);
    // Deletes the user's factor; false when the user has no such factor.
    bool removeOwned(db::Tx& tx, const std::string& userId, const std::string& factorId);
    // Deletes every factor of the user (a staff reset); returns how many there were.
    std::int64_t removeAllOf(db::Tx& tx, const std::string& userId);

    void insertChallenge(db::Tx& tx, const std::string& id, const std::string& factorId, const std::string& sessionId,
                         const std::string& ip, const std::string& expiresAt);
    std::optional<ChallengeRow> challenge(db::Tx& tx, const std::string& id, const std::string& factorId,
                                          const std::string& sessionId);
    void countFailedAttempt(db::Tx& tx, const std::string& challengeId);
    void markChallengeVerified(db::Tx& tx, const std::string& challengeId);
    void pruneChallenges(db::Tx& tx, const std::string& expiredBefore);

    // Wrong codes per account (migration 0027): one more for `method` ("totp" or "recovery_code");
    // the times of the newest `limit` since `since`, newest first (normalised timestamps); pruning.
    void insertWrongCode(db::Tx& tx, const std::string& userId, const std::string& method);
    std::vector<std::string> wrongCodesSince(db::Tx& tx, const std::string& userId, const std::string& since, int limit);
    void pruneWrongCodes(db::Tx& tx, const std::string& before);
};

} // namespace storefront::auth

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
    // Deletes the user's factor; false when the user has no such factor.
    bool removeOwned(db::Tx& tx, const std::string& userId, const std::string& factorId);

    void insertChallenge(db::Tx& tx, const std::string& id, const std::string& factorId, const std::string& sessionId,
                         const std::string& ip, const std::string& expiresAt);
    std::optional<ChallengeRow> challenge(db::Tx& tx, const std::string& id, const std::string& factorId,
                                          const std::string& sessionId);
    void countFailedAttempt(db::Tx& tx, const std::string& challengeId);
    void markChallengeVerified(db::Tx& tx, const std::string& challengeId);
    void pruneChallenges(db::Tx& tx, const std::string& expiredBefore);
};

} // namespace storefront::auth

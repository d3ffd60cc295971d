#include "auth/factor_repository.h"

namespace storefront::auth {

namespace {

constexpr const char* kList =
    "SELECT CAST(id AS TEXT) AS id, friendly_name, factor_type, status, CAST(created_at AS TEXT) AS created_at, "
    "CAST(updated_at AS TEXT) AS updated_at FROM mfa_factors WHERE user_id = ? ORDER BY created_at";
constexpr const char* kOwn = "SELECT status, secret FROM mfa_factors WHERE id = ? AND user_id = ?";
constexpr const char* kDropUnverified = "DELETE FROM mfa_factors WHERE user_id = ? AND status = 'unverified'";
constexpr const char* kCountFactors = "SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?";
constexpr const char* kNameTaken = "SELECT COUNT(*) FROM mfa_factors WHERE user_id = ? AND friendly_name = ?";
constexpr const char* kInsertFactor =
    "INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, 'unverified', ?, 0, ?, ?)";
// The guarded UPDATE makes "a code works once" hold for parallel requests too.
constexpr const char* kSpendStep =
    "UPDATE mfa_factors SET last_used_step = ?, status = 'verified', updated_at = ? WHERE id = ? AND last_used_step < ?";
constexpr const char* kRemoveFactor = "DELETE FROM mfa_factors WHERE id = ?";
// Sealed secrets start with "v1:" (auth/factor_secrets.h); base32 never holds a colon.
constexpr const char* kAnySealed =
    "SELECT CAST(id AS TEXT) AS id, secret FROM mfa_factors WHERE secret LIKE 'v1:%' ORDER BY created_at DESC LIMIT 1";
constexpr const char* kPlainSecrets =
    "SELECT CAST(id AS TEXT) AS id, secret FROM mfa_factors WHERE secret NOT LIKE 'v1:%' ORDER BY id LIMIT ?";
constexpr const char* kReplaceSecret = "UPDATE mfa_factors SET secret = ? WHERE id = ? AND secret = ?";
constexpr const char* kRemoveAllOf = "DELETE FROM mfa_factors WHERE user_id = ?";
constexpr const char* kRemoveOwned = "DELETE FROM mfa_factors WHERE id = ? AND user_id = ?";
constexpr const char* kInsertChallenge =
    "INSERT INTO mfa_challenges (id, factor_id, session_id, ip, attempts, created_at, expires_at) VALUES (?, ?, ?, ?, 0, ?, ?)";
constexpr const char* kChallenge =
    "SELECT attempts, CAST(expires_at AS TEXT) AS expires_at, CAST(verified_at AS TEXT) AS verified_at "
    "FROM mfa_challenges WHERE id = ? AND factor_id = ? AND session_id = ?";
constexpr const char* kFailedAttempt = "UPDATE mfa_challenges SET attempts = attempts + 1 WHERE id = ?";
constexpr const char* kChallengeVerified = "UPDATE mfa_challenges SET verified_at = ? WHERE id = ?";
constexpr const char* kPruneChallenges = "DELETE FROM mfa_challenges WHERE expires_at < ?";
constexpr const char* kInsertWrongCode = "INSERT INTO mfa_wrong_codes (id, user_id, method, failed_at) VALUES (?, ?, ?, ?)";
constexpr const char* kWrongCodesSince =
    "SELECT CAST(failed_at AS TEXT) AS failed_at FROM mfa_wrong_codes WHERE user_id = ? AND failed_at > ? "
    "ORDER BY failed_at DESC LIMIT ?";
constexpr const char* kPruneWrongCodes = "DELETE FROM mfa_wrong_codes WHERE failed_at < ?";

} // namespace

std::vector<FactorSummary> FactorRepository::list(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kList).bind(userId).all([](const db::Row& r) {
        return FactorSummary{r.text("id"), r.optText("friendly_name").value_or(""), r.text("factor_type"), r.text("status"),
                             r.timestamp("created_at"), r.timestamp("updated_at")};
    });
}

std::optional<OwnFactor> FactorRepository::own(Poco::Data::Session& s, const std::string& userId, const std::string& factorId) {
    return db::query(s, kOwn).bind(factorId, userId).one([&](const db::Row& r) {
        return OwnFactor{factorId, r.text("status"), r.text("secret")};
    });
}

void FactorRepository::dropUnverified(db::Tx& tx, const std::string& userId) { tx.query(kDropUnverified).bind(userId).run(); }

std::int64_t FactorRepository::count(db::Tx& tx, const std::string& userId) { return tx.query(kCountFactors).bind(userId).count(); }

bool FactorRepository::nameTaken(db::Tx& tx, const std::string& userId, const std::string& friendlyName) {
    return tx.query(kNameTaken).bind(userId, friendlyName).count() > 0;
}

void FactorRepository::insert(db::Tx& tx, const std::string& id, const std::string& userId,
                              const std::optional<std::string>& friendlyName, const std::string& type, const std::string& secret) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertFactor).bind(id, userId, friendlyName, type, secret, at, at).run();
}

bool FactorRepository::spendStep(db::Tx& tx, const std::string& factorId, std::int64_t step) {
    return tx.query(kSpendStep).bind(step, tx.clock().nowTimestamp(), factorId, step).changed() == 1;
}

void FactorRepository::remove(db::Tx& tx, const std::string& factorId) { tx.query(kRemoveFactor).bind(factorId).run(); }

std::optional<StoredSecret> FactorRepository::anySealed(Poco::Data::Session& s) {
    return db::query(s, kAnySealed).one([](const db::Row& r) { return StoredSecret{r.text("id"), r.text("secret")}; });
}

std::vector<StoredSecret> FactorRepository::plainSecrets(Poco::Data::Session& s, int limit) {
    return db::query(s, kPlainSecrets).bind(limit).all([](const db::Row& r) { return StoredSecret{r.text("id"), r.text("secret")}; });
}

bool FactorRepository::replaceSecret(db::Tx& tx, const std::string& factorId, const std::string& before, const std::string& after) {
    return tx.query(kReplaceSecret).bind(after, factorId, before).changed() == 1;
}

bool FactorRepository::removeOwned(db::Tx& tx, const std::string& userId, const std::string& factorId) {
    return tx.query(kRemoveOwned).bind(factorId, userId).changed() == 1;
}

void FactorRepository::insertChallenge(db::Tx& tx, const std::string& id, const std::string& factorId,
                                       const std::string& sessionId, const std::string& ip, const std::string& expiresAt) {
    tx.query(kInsertChallenge).bind(id, factorId, sessionId, ip, tx.clock().nowTimestamp(), expiresAt).run();
}

std::optional<ChallengeRow> FactorRepository::challenge(db::Tx& tx, const std::string& id, const std::string& factorId,
                                                        const std::string& sessionId) {
    return tx.query(kChallenge).bind(id, factorId, sessionId).one([](const db::Row& r) {
        return ChallengeRow{r.int64("attempts"), r.timestamp("expires_at"), r.optTimestamp("verified_at")};
    });
}

void FactorRepository::countFailedAttempt(db::Tx& tx, const std::string& challengeId) {
    tx.query(kFailedAttempt).bind(challengeId).run();
}

void FactorRepository::markChallengeVerified(db::Tx& tx, const std::string& challengeId) {
    tx.query(kChallengeVerified).bind(tx.clock().nowTimestamp(), challengeId).run();
}

void FactorRepository::pruneChallenges(db::Tx& tx, const std::string& expiredBefore) {
    tx.query(kPruneChallenges).bind(expiredBefore).run();
}

void FactorRepository::insertWrongCode(db::Tx& tx, const std::string& userId, const std::string& method) {
    tx.query(kInsertWrongCode).bind(db::newId(), userId, method, tx.clock().nowTimestamp()).run();
}

std::vector<std::string> FactorRepository::wrongCodesSince(db::Tx& tx, const std::string& userId, const std::string& since,
                                                           int limit) {
    return tx.query(kWrongCodesSince).bind(userId, since, limit).all([](const db::Row& r) { return r.timestamp("failed_at"); });
}

void FactorRepository::pruneWrongCodes(db::Tx& tx, const std::string& before) { tx.query(kPruneWrongCodes).bind(before).run(); }

std::int64_t FactorRepository::removeAllOf(db::Tx& tx, const std::string& userId) {
    return static_cast<std::int64_t>(tx.query(kRemoveAllOf).bind(userId).changed());
}

} // namespace storefront::auth

#include "auth/recovery_code_repository.h"

namespace storefront::auth {

namespace {

constexpr const char* kRecoveryCodesRemoveAll = "DELETE FROM mfa_recovery_codes WHERE user_id = ?";
constexpr const char* kRecoveryCodeInsert = "INSERT INTO mfa_recovery_codes (id, user_id, code_hash, created_at) VALUES (?, ?, ?, ?)";
constexpr const char* kRecoveryCodeSpend =
    "UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL";
constexpr const char* kCountRecoveryCodesSql =
    "SELECT COUNT(*) AS total, SUM(CASE WHEN used_at IS NULL THEN 1 ELSE 0 END) AS remaining, "
    "CAST(MIN(created_at) AS TEXT) AS created_at FROM mfa_recovery_codes WHERE user_id = ?";

} // namespace

void RecoveryCodeRepository::replace(db::Tx& tx, const std::string& userId, const std::vector<std::string>& codeHashes) {
    tx.query(kRecoveryCodesRemoveAll).bind(userId).run();
    const auto at = tx.clock().nowTimestamp();
    for (const auto& hash : codeHashes) tx.query(kRecoveryCodeInsert).bind(db::newId(), userId, hash, at).run();
}

bool RecoveryCodeRepository::spend(db::Tx& tx, const std::string& userId, const std::string& codeHash) {
    return tx.query(kRecoveryCodeSpend).bind(tx.clock().nowTimestamp(), userId, codeHash).changed() == 1;
}

RecoveryCodeCount RecoveryCodeRepository::count(Poco::Data::Session& s, const std::string& userId) {
    auto row = db::query(s, kCountRecoveryCodesSql).bind(userId).one([](const db::Row& r) {
        RecoveryCodeCount c;
        if (r.int64("total") == 0) return c;
        c.remaining = r.optInt64("remaining").value_or(0);
        c.createdAt = r.optTimestamp("created_at");
        return c;
    });
    return row.value_or(RecoveryCodeCount{});
}

std::int64_t RecoveryCodeRepository::removeAllOf(db::Tx& tx, const std::string& userId) {
    return static_cast<std::int64_t>(tx.query(kRecoveryCodesRemoveAll).bind(userId).changed());
}

} // namespace storefront::auth

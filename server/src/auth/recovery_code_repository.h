#pragma once
// SQL for two-factor recovery codes (mfa_recovery_codes): only hashes are stored.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::auth {

struct RecoveryCodeCount {
    std::int64_t remaining = 0;           // codes not used yet
    std::optional<std::string> createdAt; // when the set was made; nullopt when the user has none
};

class RecoveryCodeRepository {
public:
    // Replaces the user's set with these hashes.
    void replace(db::Tx& tx, const std::string& userId, const std::vector<std::string>& codeHashes);
    // Marks the code used; false when the user has no such unused code (a guarded UPDATE: once only).
    bool spend(db::Tx& tx, const std::string& userId, const std::string& codeHash);
    RecoveryCodeCount count(Poco::Data::Session& s, const std::string& userId);
    // Deletes the user's set; returns how many codes there were.
    std::int64_t removeAllOf(db::Tx& tx, const std::string& userId);
};

} // namespace storefront::auth

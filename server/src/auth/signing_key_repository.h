#pragma once
// SQL for the JWT signing keys (auth_signing_keys).
#include "db/database.h"

#include <string>
#include <vector>

namespace storefront::auth {

struct StoredKey {
    std::string kid, privatePem, publicPem, createdAt;
    bool active = true;
};

class SigningKeyRepository {
public:
    explicit SigningKeyRepository(db::Database& db) : db_(db) {}
    // The active keys, oldest first.
    std::vector<StoredKey> active();
    // Every key, retired ones too, oldest first.
    std::vector<StoredKey> all();
    void insert(const StoredKey& key);
    // Takes keys out of use for good (no token they signed can still be valid).
    void retire(const std::vector<std::string>& kids);

private:
    db::Database& db_;
};

} // namespace storefront::auth

#pragma once
// SQL for the JWT signing keys (auth_signing_keys).
#include "db/database.h"

#include <string>
#include <vector>

namespace storefront::auth {

struct StoredKey {
    std::string kid, privatePem, publicPem, createdAt;
};

class SigningKeyRepository {
public:
    explicit SigningKeyRepository(db::Database& db) : db_(db) {}
    // The active keys, oldest first.
    std::vector<StoredKey> active();
    void insert(const StoredKey& key);

private:
    db::Database& db_;
};

} // namespace storefront::auth

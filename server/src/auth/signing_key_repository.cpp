#include "auth/signing_key_repository.h"

namespace storefront::auth {

namespace {

constexpr const char* kActive = "SELECT kid, private_pem, public_pem, CAST(created_at AS TEXT) AS created_at "
                                "FROM auth_signing_keys WHERE active = TRUE ORDER BY created_at";
constexpr const char* kInsertKey =
    "INSERT INTO auth_signing_keys (kid, private_pem, public_pem, active, created_at) VALUES (?, ?, ?, TRUE, ?)";

} // namespace

std::vector<StoredKey> SigningKeyRepository::active() {
    auto s = db_.session();
    return db::query(s, kActive).all([](const db::Row& r) {
        return StoredKey{r.text("kid"), r.text("private_pem"), r.text("public_pem"), r.timestamp("created_at")};
    });
}

void SigningKeyRepository::insert(const StoredKey& key) {
    db_.write([&](db::Tx& tx) { tx.query(kInsertKey).bind(key.kid, key.privatePem, key.publicPem, key.createdAt).run(); });
}

} // namespace storefront::auth

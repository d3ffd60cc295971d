#include "auth/signing_key_repository.h"

namespace storefront::auth {

namespace {

constexpr const char* kActive = "SELECT kid, private_pem, public_pem, CAST(created_at AS TEXT) AS created_at "
                                "FROM auth_signing_keys WHERE active = TRUE ORDER BY created_at";
constexpr const char* kAll = "SELECT kid, private_pem, public_pem, CAST(created_at AS TEXT) AS created_at, active "
                             "FROM auth_signing_keys ORDER BY created_at";
constexpr const char* kRetire = "UPDATE auth_signing_keys SET active = FALSE WHERE kid = ?";
constexpr const char* kInsertKey =
    "INSERT INTO auth_signing_keys (kid, private_pem, public_pem, active, created_at) VALUES (?, ?, ?, TRUE, ?)";

} // namespace

std::vector<StoredKey> SigningKeyRepository::active() {
    auto s = db_.session();
    return db::query(s, kActive).all([](const db::Row& r) {
        return StoredKey{r.text("kid"), r.text("private_pem"), r.text("public_pem"), r.timestamp("created_at")};
    });
}

std::vector<StoredKey> SigningKeyRepository::all() {
    auto s = db_.session();
    return db::query(s, kAll).all([](const db::Row& r) {
        return StoredKey{r.text("kid"), r.text("private_pem"), r.text("public_pem"), r.timestamp("created_at"), r.boolean("active")};
    });
}

void SigningKeyRepository::retire(const std::vector<std::string>& kids) {
    if (kids.empty()) return;
    db_.write([&](db::Tx& tx) {
        for (const auto& kid : kids) tx.query(kRetire).bind(kid).run();
    });
}

void SigningKeyRepository::insert(const StoredKey& key) {
    db_.write([&](db::Tx& tx) { tx.query(kInsertKey).bind(key.kid, key.privatePem, key.publicPem, key.createdAt).run(); });
}

} // namespace storefront::auth

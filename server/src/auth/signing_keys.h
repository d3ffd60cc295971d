#pragma once
// ES256 signing of access tokens and the public keys behind /auth/v1/.well-known/jwks.json.
// Key pairs live in auth_signing_keys, so tokens stay valid across restarts and every server signs
// and verifies with the same keys. A token whose kid is not known yet makes the store reload once
// (another server may have just created a key), at most once a second.
#include "auth/signing_key_repository.h"
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace Poco::JWT {
class Signer;
}

namespace storefront::auth {

class SigningKeys {
public:
    // Loads the active keys, creating the first one when there is none.
    explicit SigningKeys(db::Database& db);
    ~SigningKeys();

    // A compact JWS (ES256, typ JWT, kid) over `claims`.
    std::string sign(const nlohmann::json& claims) const;
    // The claims of a token signed by one of the active keys, or nullopt (bad signature, other
    // algorithm, unknown key, malformed). Does not look at exp: the caller does.
    std::optional<nlohmann::json> verify(const std::string& jwt);
    // {"keys": [{kty, crv, x, y, kid, alg, use, key_ops}]} for every active key.
    nlohmann::json jwks() const;

private:
    struct Key {
        std::string kid;
        std::string createdAt;
        std::shared_ptr<Poco::JWT::Signer> signer;
        nlohmann::json jwk;
    };
    void load();
    std::shared_ptr<const Key> find(const std::string& kid) const;

    SigningKeyRepository stored_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const Key>> keys_;
    std::shared_ptr<const Key> current_;
    std::chrono::steady_clock::time_point lastReload_{};
};

} // namespace storefront::auth

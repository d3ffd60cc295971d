#pragma once
// ES256 signing of access tokens and the public keys behind /auth/v1/.well-known/jwks.json.
// Key pairs live in auth_signing_keys, so tokens stay valid across restarts and every server signs
// and verifies with the same keys. A token whose kid is not known yet makes the store reload once
// (another server may have just created a key and signed with it a moment after this one last
// read the keys): each unknown kid at most once a second, and at most 20 such reloads a second in
// all, so made-up kids cannot turn every request into a database read; signing re-reads the keys
// every few seconds, so a key made by `storefront keys rotate` signs everywhere soon after.
//
// Rotation: the newest active key signs. An older active key stays in the JWKS (and verifies)
// until every token it can have signed has expired: the token lifetime after the key that
// replaced it was created, plus kRetiredKeyMarginSeconds. Past that it is ignored, and the next
// rotation marks it inactive in the table.
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

// Servers notice a new key within seconds and clocks drift: a replaced key verifies this much
// longer than the token lifetime.
inline constexpr int kRetiredKeyMarginSeconds = 300;

// A key as `storefront keys list` shows it.
struct KeyState {
    std::string kid, createdAt;
    std::string state;         // signing | verifying | expired (ignored, retired at the next rotation) | retired
    std::string verifiesUntil; // for verifying and expired keys: when the last token it signed expires
};

class SigningKeys {
public:
    // Loads the active keys, creating the first one when there is none. `tokenLifetimeSeconds`:
    // the access-token lifetime (settings.jwtExpirySeconds), which decides how long a replaced
    // key keeps verifying.
    explicit SigningKeys(db::Database& db, int tokenLifetimeSeconds = 3600);
    ~SigningKeys();

    // A compact JWS (ES256, typ JWT, kid) over `claims`, with the newest key.
    std::string sign(const nlohmann::json& claims);
    // The claims of a token signed by one of the active keys, or nullopt (bad signature, other
    // algorithm, unknown key, malformed). Does not look at exp: the caller does.
    std::optional<nlohmann::json> verify(const std::string& jwt);
    // {"keys": [{kty, crv, x, y, kid, alg, use, key_ops}]} for every active key.
    nlohmann::json jwks();

    // `storefront keys rotate`: adds a new key, which signs from now on (on every server within a
    // few seconds), and retires the keys no unexpired token can need. Returns the keys after it.
    static std::vector<KeyState> rotate(db::Database& db, int tokenLifetimeSeconds);
    // `storefront keys list`: every stored key, oldest first.
    static std::vector<KeyState> list(db::Database& db, int tokenLifetimeSeconds);

private:
    struct Key {
        std::string kid;
        std::string createdAt;
        std::shared_ptr<Poco::JWT::Signer> signer;
        nlohmann::json jwk;
    };
    void load();
    // Re-reads the keys when they were last read more than a few seconds ago.
    void reloadIfStale();
    std::shared_ptr<const Key> find(const std::string& kid) const;

    SigningKeyRepository stored_;
    const Clock& clock_;
    int tokenLifetimeSeconds_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const Key>> keys_;
    std::shared_ptr<const Key> current_;
    std::chrono::steady_clock::time_point lastReload_{};
    // Unknown kids looked up in the last second (at most 1024), and the reloads they caused.
    std::map<std::string, std::chrono::steady_clock::time_point> unknownKids_;
    std::chrono::steady_clock::time_point unknownWindow_{};
    int unknownReloads_ = 0;
};

} // namespace storefront::auth

#include "auth/signing_keys.h"

#include "auth/secrets.h"

#include <Poco/Crypto/ECKey.h>
#include <Poco/Crypto/ECKeyImpl.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JWT/Signer.h>
#include <Poco/JWT/Token.h>
#include <Poco/StringTokenizer.h>

#include <openssl/bn.h>
#include <openssl/ec.h>

#include <Poco/Timestamp.h>

#include <sstream>


namespace storefront::auth {

namespace {

std::string coordinate(const BIGNUM* n) {
    std::string bytes(32, '\0');
    BN_bn2binpad(n, reinterpret_cast<unsigned char*>(bytes.data()), 32);
    return base64Url(bytes);
}

nlohmann::json publicJwk(const Poco::Crypto::ECKey& key, const std::string& kid) {
    const EC_KEY* ec = key.impl()->getECKey();
    const EC_POINT* point = EC_KEY_get0_public_key(ec);
    BIGNUM* x = BN_new();
    BIGNUM* y = BN_new();
    EC_POINT_get_affine_coordinates(EC_KEY_get0_group(ec), point, x, y, nullptr);
    nlohmann::json jwk = {{"kty", "EC"},  {"crv", "P-256"}, {"x", coordinate(x)},         {"y", coordinate(y)},
                          {"kid", kid},   {"alg", "ES256"}, {"use", "sig"},               {"key_ops", {"verify"}}};
    BN_free(x);
    BN_free(y);
    return jwk;
}

std::optional<nlohmann::json> segmentJson(const std::string& segment) {
    auto raw = fromBase64Url(segment);
    if (!raw) return std::nullopt;
    auto value = nlohmann::json::parse(*raw, nullptr, false);
    if (value.is_discarded() || !value.is_object()) return std::nullopt;
    return value;
}

// Signing re-reads the keys this often, so a rotation reaches every server.
constexpr auto kRecheck = std::chrono::seconds(5);

StoredKey newKey(const Clock& clock) {
    Poco::Crypto::ECKey key("prime256v1");
    std::ostringstream pub, priv;
    key.save(&pub, &priv);
    return {randomToken(12), priv.str(), pub.str(), clock.nowTimestamp()};
}

// The state of each key (rows oldest first): the newest active key signs; an older active key
// verifies until the token lifetime (plus the margin) after the next key was created.
std::vector<KeyState> statesOf(const std::vector<StoredKey>& rows, int tokenLifetimeSeconds, std::int64_t now) {
    std::vector<KeyState> states;
    std::size_t newestActive = rows.size();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].active) newestActive = i;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        KeyState state{rows[i].kid, rows[i].createdAt, "retired", ""};
        if (i == newestActive) state.state = "signing";
        else if (rows[i].active && i + 1 < rows.size()) {
            const auto until = db::epochFromTimestamp(rows[i + 1].createdAt) + tokenLifetimeSeconds + kRetiredKeyMarginSeconds;
            state.verifiesUntil = db::timestampFromEpoch(until);
            state.state = now <= until ? "verifying" : "expired";
        }
        states.push_back(std::move(state));
    }
    return states;
}

} // namespace

SigningKeys::SigningKeys(db::Database& db, int tokenLifetimeSeconds) : stored_(db), clock_(db.clock()), tokenLifetimeSeconds_(tokenLifetimeSeconds) {
    load();
    if (current_) return;
    stored_.insert(newKey(clock_));
    load();
}

std::vector<KeyState> SigningKeys::list(db::Database& db, int tokenLifetimeSeconds) {
    return statesOf(SigningKeyRepository(db).all(), tokenLifetimeSeconds, db.clock().epochSeconds());
}

std::vector<KeyState> SigningKeys::rotate(db::Database& db, int tokenLifetimeSeconds) {
    SigningKeyRepository stored(db);
    stored.insert(newKey(db.clock()));
    std::vector<std::string> expired;
    for (const auto& key : statesOf(stored.all(), tokenLifetimeSeconds, db.clock().epochSeconds()))
        if (key.state == "expired") expired.push_back(key.kid);
    stored.retire(expired);
    return list(db, tokenLifetimeSeconds);
}

SigningKeys::~SigningKeys() = default;

void SigningKeys::load() {
    std::map<std::string, std::shared_ptr<const Key>> keys;
    std::shared_ptr<const Key> newest;
    const auto rows = stored_.active();
    const auto states = statesOf(rows, tokenLifetimeSeconds_, clock_.epochSeconds());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (states[i].state != "signing" && states[i].state != "verifying") continue; // no live token needs it
        std::istringstream pub(row.publicPem), priv(row.privatePem);
        Poco::SharedPtr<Poco::Crypto::ECKey> ec(new Poco::Crypto::ECKey(&pub, &priv));
        auto key = std::make_shared<Key>();
        key->kid = row.kid;
        key->createdAt = row.createdAt;
        key->signer = std::make_shared<Poco::JWT::Signer>(ec);
        key->signer->setAlgorithms({"ES256"});
        key->jwk = publicJwk(*ec, key->kid);
        keys[key->kid] = key;
        newest = key; // ordered by created_at
    }
    std::lock_guard lock(mutex_);
    keys_ = std::move(keys);
    current_ = newest;
    lastReload_ = std::chrono::steady_clock::now();
}

std::shared_ptr<const SigningKeys::Key> SigningKeys::find(const std::string& kid) const {
    std::lock_guard lock(mutex_);
    auto it = keys_.find(kid);
    return it == keys_.end() ? nullptr : it->second;
}

void SigningKeys::reloadIfStale() {
    bool stale = false;
    {
        std::lock_guard lock(mutex_);
        stale = std::chrono::steady_clock::now() - lastReload_ > kRecheck;
    }
    if (stale) load();
}

std::string SigningKeys::sign(const nlohmann::json& claims) {
    reloadIfStale();
    std::shared_ptr<const Key> key;
    {
        std::lock_guard lock(mutex_);
        key = current_;
    }
    Poco::JWT::Token token;
    token.setType("JWT");
    token.header().set("kid", key->kid);
    Poco::JSON::Parser parser;
    auto payload = parser.parse(claims.dump()).extract<Poco::JSON::Object::Ptr>();
    token.payload() = *payload;
    return key->signer->sign(token, "ES256");
}

std::optional<nlohmann::json> SigningKeys::verify(const std::string& jwt) {
    Poco::StringTokenizer parts(jwt, ".");
    if (parts.count() != 3 || jwt.size() > 16384) return std::nullopt;
    auto header = segmentJson(parts[0]);
    if (!header) return std::nullopt;
    const auto alg = header->find("alg"), kidField = header->find("kid");
    if (alg == header->end() || *alg != "ES256" || kidField == header->end() || !kidField->is_string()) return std::nullopt;
    const std::string kid = (*header)["kid"];
    reloadIfStale(); // a key taken out of use stops verifying within seconds
    auto key = find(kid);
    if (!key) {
        bool reload = false;
        {
            std::lock_guard lock(mutex_);
            const auto now = std::chrono::steady_clock::now();
            if (now - unknownWindow_ > std::chrono::seconds(1)) { // a new one-second window
                unknownWindow_ = now;
                unknownReloads_ = 0;
                std::erase_if(unknownKids_, [&](const auto& entry) { return now - entry.second > std::chrono::seconds(1); });
            }
            reload = !unknownKids_.contains(kid) && unknownReloads_ < 20;
            if (reload) ++unknownReloads_;
            if (unknownKids_.size() < 1024) unknownKids_.emplace(kid, now);
        }
        if (reload) load();
        key = find(kid);
        if (!key) return std::nullopt;
    }
    try {
        Poco::JWT::Token token;
        if (!key->signer->tryVerify(jwt, token)) return std::nullopt;
    } catch (const Poco::Exception&) {
        return std::nullopt;
    }
    return segmentJson(parts[1]);
}

nlohmann::json SigningKeys::jwks() {
    reloadIfStale();
    std::lock_guard lock(mutex_);
    auto keys = nlohmann::json::array();
    for (const auto& [kid, key] : keys_) keys.push_back(key->jwk);
    return {{"keys", keys}};
}

} // namespace storefront::auth

#pragma once
// The companion area's rules: worker profiles (created on first call, activity recorded at most
// once a minute), certificates (drafts, the free-tier limit, issuing with a unique number), promo
// codes and their redemption, and the staff's writes (each audited in its transaction).
#include "audit/audit.h"
#include "common/clock.h"
#include "companion/timestamps.h"
#include "companion/companion_repository.h"
#include "companion/settings.h"
#include "db/database.h"

#include <optional>
#include <string>

namespace storefront::companion {

// The signed-in user as the companion app sees them.
struct Caller {
    std::string userId;
    std::optional<std::string> email, fullName;
};

struct ProfileInput {
    std::optional<std::string> fullName, licenceNumber;
};

struct CertificateInput {
    std::optional<std::string> siteLocation;
};

struct PromoCodeInput {
    std::string code, description; // code already upper case and checked
    std::optional<std::int64_t> durationMonths, maxUses, expiresDays;
};

struct Stats {
    TierCounts workers;
    std::int64_t certificates = 0, redemptions = 0, inactive = 0;
};

// Limits on what the companion app and the staff may send (characters).
struct Limits {
    static constexpr std::size_t fullName = 200, licenceNumber = 50, siteLocation = 500, code = 40, description = 500;
    static constexpr std::int64_t durationMonths = 1200, maxUses = 1'000'000, expiresDays = 3650;
};

class CompanionService {
public:
    CompanionService(db::Database& db, CompanionRepository& repo, const Settings& settings, const Clock& clock)
        : db_(db), repo_(repo), settings_(settings), clock_(clock) {}

    // ---- the companion app ----
    // The caller's worker profile, created on first call; records activity (a write at most once a
    // minute).
    Worker workerFor(const Caller& caller);
    Worker updateProfile(const Worker& worker, const ProfileInput& input);
    // A pro worker whose pro period has not ended.
    bool isPro(const Worker& worker) const;

    Certificate certificate(const Worker& worker, const std::string& id);
    Certificate createCertificate(const Worker& worker, const CertificateInput& input);
    Certificate updateCertificate(const Worker& worker, const std::string& id, const CertificateInput& input);
    Certificate issueCertificate(const Worker& worker, const std::string& id);

    // Redeems `code` (any case) for the worker; answers the worker as they now are.
    Worker redeem(const Worker& worker, const std::string& code);

    // ---- staff ----
    Stats stats();
    PromoCode createPromoCode(const audit::Actor& actor, const PromoCodeInput& input);
    PromoCode setPromoCodeActive(const audit::Actor& actor, const std::string& id, bool active);
    // free -> pro (lifetime) or pro -> free; pro_expires_at cleared either way.
    Worker setEntitlement(const audit::Actor& actor, const std::string& id, const std::string& entitlement);

    const Settings& settings() const { return settings_; }

private:
    std::string now() const { return timestampAt(clock_.epochMillis()); }

    db::Database& db_;
    CompanionRepository& repo_;
    const Settings& settings_;
    const Clock& clock_;
};

} // namespace storefront::companion

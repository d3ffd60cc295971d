#include "companion/companion_repository.h"

namespace storefront::companion {

namespace {

#define PROMO_COLUMNS                                                                                           \
    "SELECT CAST(id AS TEXT) AS id, code, description, entitlement, duration_months, max_uses, uses_count, "     \
    "CAST(expires_at AS TEXT) AS expires_at, CASE WHEN active THEN 1 ELSE 0 END AS active, "                    \
    "CAST(created_at AS TEXT) AS created_at FROM promo_codes"

constexpr const char* kPromoById = PROMO_COLUMNS " WHERE id = ?";
constexpr const char* kPromoByCode = PROMO_COLUMNS " WHERE code = ?";
// promo_codes_created_at_idx serves this order.
constexpr const char* kPromoPage = PROMO_COLUMNS " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?";
constexpr const char* kPromoCount = "SELECT COUNT(*) FROM promo_codes";
constexpr const char* kInsertPromo =
    "INSERT INTO promo_codes (id, code, description, entitlement, duration_months, max_uses, uses_count, expires_at, "
    "active, created_by, created_at) VALUES (?, ?, ?, 'pro', ?, ?, 0, ?, TRUE, ?, ?) ON CONFLICT (code) DO NOTHING";
constexpr const char* kSetPromoActive = "UPDATE promo_codes SET active = ? WHERE id = ?";
// The one statement that decides a use: concurrent redemptions queue on the row and each
// re-checks uses_count, so max_uses is never passed.
constexpr const char* kClaimPromo =
    "UPDATE promo_codes SET uses_count = uses_count + 1 WHERE code = ? AND active = TRUE "
    "AND (max_uses IS NULL OR uses_count < max_uses) AND (expires_at IS NULL OR expires_at > ?) "
    "RETURNING CAST(id AS TEXT) AS id, duration_months";
constexpr const char* kHasRedeemed =
    "SELECT 1 FROM promo_code_redemptions WHERE promo_code_id = ? AND worker_id = ?";
constexpr const char* kInsertRedemption =
    "INSERT INTO promo_code_redemptions (id, promo_code_id, worker_id, redeemed_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (promo_code_id, worker_id) DO NOTHING";
constexpr const char* kRedemptionCount = "SELECT COUNT(*) FROM promo_code_redemptions";

#undef PROMO_COLUMNS

PromoCode readPromo(const db::Row& r) {
    PromoCode p;
    p.id = r.text("id");
    p.code = r.text("code");
    p.description = r.text("description");
    p.entitlement = r.text("entitlement");
    p.durationMonths = r.optInt64("duration_months");
    p.maxUses = r.optInt64("max_uses");
    p.usesCount = r.int64("uses_count");
    p.expiresAt = r.optTimestamp("expires_at");
    p.active = r.int64("active") == 1;
    p.createdAt = r.timestamp("created_at");
    return p;
}

} // namespace

db::Page<PromoCode> CompanionRepository::listPromoCodes(std::int64_t limit, std::int64_t offset) {
    auto s = db_.session();
    db::Page<PromoCode> page;
    page.total = db::query(s, kPromoCount).count();
    page.items = db::query(s, kPromoPage).bind(limit, offset).all(readPromo);
    return page;
}

std::optional<PromoCode> CompanionRepository::findPromoCode(const std::string& id) {
    auto s = db_.session();
    return db::query(s, kPromoById).bind(id).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCode(db::Tx& tx, const std::string& id) {
    return tx.query(kPromoById).bind(id).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCodeByCode(const std::string& code) {
    auto s = db_.session();
    return db::query(s, kPromoByCode).bind(code).one(readPromo);
}

std::optional<PromoCode> CompanionRepository::findPromoCodeByCode(db::Tx& tx, const std::string& code) {
    return tx.query(kPromoByCode).bind(code).one(readPromo);
}

std::optional<std::string> CompanionRepository::insertPromoCode(db::Tx& tx, const NewPromoCode& c, const std::string& now) {
    auto id = db::newId();
    const auto inserted =
        tx.query(kInsertPromo).bind(id, c.code, c.description, c.durationMonths, c.maxUses, c.expiresAt, c.createdBy, now).changed();
    if (inserted == 0) return std::nullopt;
    return id;
}

void CompanionRepository::setPromoCodeActive(db::Tx& tx, const std::string& id, bool active) {
    tx.query(kSetPromoActive).bind(active, id).run();
}

std::optional<ClaimedCode> CompanionRepository::claimPromoCode(db::Tx& tx, const std::string& code, const std::string& now) {
    return tx.query(kClaimPromo).bind(code, now).one([](const db::Row& r) {
        return ClaimedCode{r.text("id"), r.optInt64("duration_months")};
    });
}

bool CompanionRepository::hasRedeemed(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId) {
    return tx.query(kHasRedeemed).bind(promoCodeId, workerId).exists();
}

bool CompanionRepository::insertRedemption(db::Tx& tx, const std::string& promoCodeId, const std::string& workerId,
                                           const std::string& now) {
    return tx.query(kInsertRedemption).bind(db::newId(), promoCodeId, workerId, now).changed() == 1;
}

std::int64_t CompanionRepository::redemptionCount() {
    auto s = db_.session();
    return db::query(s, kRedemptionCount).count();
}

} // namespace storefront::companion

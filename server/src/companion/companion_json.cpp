#include "companion/companion_json.h"

namespace storefront::companion {

namespace {

nlohmann::json opt(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }
nlohmann::json opt(const std::optional<std::int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json toJson(const Worker& w) {
    return {{"id", w.id},
            {"full_name", opt(w.fullName)},
            {"email", opt(w.email)},
            {"ewrb_licence_number", opt(w.licenceNumber)},
            {"entitlement", w.entitlement},
            {"pro_expires_at", opt(w.proExpiresAt)},
            {"last_active_at", opt(w.lastActiveAt)},
            {"inactivity_warned_at", opt(w.inactivityWarnedAt)},
            {"created_at", w.createdAt},
            {"certificates_count", w.certificatesCount}};
}

nlohmann::json toJson(const Certificate& c) {
    return {{"id", c.id},
            {"worker_id", c.workerId},
            {"certificate_number", opt(c.number)},
            {"site_location", opt(c.siteLocation)},
            {"status", c.status},
            {"created_at", c.createdAt},
            {"updated_at", c.updatedAt},
            {"issued_at", opt(c.issuedAt)},
            {"worker", {{"full_name", opt(c.workerName)}, {"email", opt(c.workerEmail)}}}};
}

nlohmann::json toJson(const PromoCode& p) {
    return {{"id", p.id},
            {"code", p.code},
            {"description", p.description},
            {"entitlement", p.entitlement},
            {"duration_months", opt(p.durationMonths)},
            {"max_uses", opt(p.maxUses)},
            {"uses_count", p.usesCount},
            {"expires_at", opt(p.expiresAt)},
            {"active", p.active},
            {"created_at", p.createdAt}};
}

} // namespace storefront::companion

#include "enterprise/account_json.h"

namespace storefront::enterprise {

namespace {

nlohmann::json enterpriseOrNull(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json accountJson(const Account& a) {
    return {{"id", a.id},
            {"company_name", a.companyName},
            {"billing_email", a.billingEmail},
            {"admin", {{"id", a.adminUserId}, {"email", enterpriseOrNull(a.adminEmail)}}},
            {"max_licenses", a.maxLicenses},
            {"is_active", a.isActive},
            {"created_at", a.createdAt},
            {"member_count", a.memberCount},
            {"user_count", a.memberCount},
            {"license_count", a.licenseCount}};
}

nlohmann::json memberJson(const Member& m) {
    return {{"id", m.id},
            {"user_id", m.userId},
            {"email", enterpriseOrNull(m.email)},
            {"full_name", enterpriseOrNull(m.fullName)},
            {"role", m.role},
            {"added_at", m.addedAt},
            {"seat_product_ids", m.seatProductIds}};
}

nlohmann::json licenceJson(const Licence& l) {
    return {{"id", l.id},
            {"product", {{"id", l.productId}, {"name", l.productName}, {"slug", l.productSlug}}},
            {"quantity", l.quantity},
            {"used_count", l.usedCount},
            {"created_at", l.createdAt}};
}

nlohmann::json membersJson(const std::vector<Member>& members) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : members) out.push_back(memberJson(m));
    return out;
}

nlohmann::json licencesJson(const std::vector<Licence>& licences) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& l : licences) out.push_back(licenceJson(l));
    return out;
}

} // namespace storefront::enterprise

#include "api/enterprise_support.h"

#include <stdexcept>

namespace testing_support {

const StaffAdmin& enterpriseStaff() {
    static const StaffAdmin staff = createStaffAdmin(newClientIp());
    return staff;
}

Headers staff() { return enterpriseStaff().session.headers(); }

TestTeam createTeam(const std::string& prefix, int maxLicenses) {
    TestTeam team;
    team.admin = createUser(prefix + "-admin");
    auto res = postJson("/api/v1/admin/enterprise",
                        {{"company_name", unique(prefix + " Ltd ")},
                         {"billing_email", "billing@example.nz"},
                         {"admin_email", team.admin.email},
                         {"max_licenses", maxLicenses}},
                        enterpriseStaff().session.headers());
    if (res.status != 201) throw std::runtime_error("creating an enterprise account: " + res.body);
    team.accountId = res.json()["account"]["id"];
    team.session = signIn(team.admin, newClientIp());
    return team;
}

HttpResult addMember(const TestTeam& team, const std::string& email) {
    return postJson("/api/v1/enterprise/members", {{"email", email}}, team.session.headers());
}

std::string addNewMember(const TestTeam& team, Account* user) {
    auto account = createUser("member");
    auto res = addMember(team, account.email);
    if (res.status != 201) throw std::runtime_error("adding a member: " + res.body);
    if (user) *user = account;
    return res.json()["member"]["id"];
}

std::string addLicence(const std::string& accountId, const std::string& productId, int quantity) {
    auto res = postJson("/api/v1/admin/enterprise/" + accountId + "/licences", {{"product_id", productId}, {"quantity", quantity}},
                        enterpriseStaff().session.headers());
    if (res.status != 201) throw std::runtime_error("adding a licence: " + res.body);
    return res.json()["licence"]["id"];
}

LicensedProduct createLicensableProduct() {
    LicensedProduct p{storefront::db::newId(), unique("team-app")};
    execSql("INSERT INTO products (id, slug, name, description, type, icon_url, features, is_active, track_inventory, "
            "show_pricing, price_nzd, action_type, created_at, updated_at) VALUES (?, ?, ?, '<p>Test</p>', 'subscription', "
            "'/products/hhtraff/hhtraff-icon.svg', '[]', TRUE, FALSE, TRUE, 0, 'checkout', '2026-01-01T00:00:00.000Z', "
            "'2026-01-01T00:00:00.000Z')",
            {p.id, p.slug, "Team app " + p.slug});
    return p;
}

std::int64_t memberCount(const std::string& accountId) {
    return countRows("SELECT COUNT(*) FROM enterprise_members WHERE enterprise_account_id = ?", {accountId});
}

std::int64_t usedCount(const std::string& licenceId) {
    return countRows("SELECT used_count FROM enterprise_licenses WHERE id = ?", {licenceId});
}

std::int64_t seatRows(const std::string& licenceId) {
    return countRows("SELECT COUNT(*) FROM enterprise_license_seats WHERE license_id = ?", {licenceId});
}

} // namespace testing_support

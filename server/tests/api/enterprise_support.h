#pragma once
// Helpers for the enterprise API tests: one staff admin at aal2 for the whole binary, accounts
// created through the staff API, team members, and the seat invariants read from the database.
#include "api/auth_support.h"

#include <string>

namespace testing_support {

// A staff admin with a verified factor, signed in at aal2 (made once per test binary).
const StaffAdmin& enterpriseStaff();
// Its request headers.
Headers staff();

// An account through POST /api/v1/admin/enterprise for an existing user, who is signed in.
struct TestTeam {
    Account admin;
    Session session;
    std::string accountId;
};
TestTeam createTeam(const std::string& prefix, int maxLicenses = 5);

// POST /api/v1/enterprise/members as the team's admin.
HttpResult addMember(const TestTeam& team, const std::string& email);
// A new user added to the team (fails the test unless it answers 201); returns the member id.
std::string addNewMember(const TestTeam& team, Account* user = nullptr);
// A licence through the staff API; returns its id.
std::string addLicence(const std::string& accountId, const std::string& productId, int quantity);
// A new active subscription product (no plans needed for licences).
struct LicensedProduct {
    std::string id, slug;
};
LicensedProduct createLicensableProduct();

std::int64_t memberCount(const std::string& accountId);
std::int64_t usedCount(const std::string& licenceId);
std::int64_t seatRows(const std::string& licenceId);

} // namespace testing_support

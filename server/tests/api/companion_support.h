#pragma once
// Helpers for the WireWrite (companion) API tests: one staff admin per test binary, workers signed
// in as the companion app would be, promo codes made through the staff API.
#include "api/auth_support.h"

#include <string>
#include <vector>

namespace testing_support {

// A staff admin at aal2, made once per test binary.
const StaffAdmin& companionAdmin();
Headers staffHeaders();

// A user signed in at aal1 (no factor) whose worker profile exists (GET /api/v1/wirewrite/me).
struct WorkerSession {
    Account account;
    Session session;
    std::string workerId;
    Headers headers() const { return session.headers(); }
};
WorkerSession newWorker(const std::string& prefix = "worker");

// A promo code made through the staff API (201 expected); answers its JSON.
nlohmann::json createPromo(const nlohmann::json& body);
// A fresh upper-case code.
std::string newCode(const std::string& prefix = "WW");

// The oracle for the staff certificates search: the ids LOWER(column) LIKE '%term%' finds through
// the certificate's number or site or its worker's name or email (optionally of one status),
// newest first, as the list ordered them before any index served it.
std::vector<std::string> searchCertificatesLike(const std::string& term, const std::string& status = "");

} // namespace testing_support

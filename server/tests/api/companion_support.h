#pragma once
// Helpers for the WireWrite (companion) API tests: one staff admin per test binary, workers signed
// in as the companion app would be, promo codes made through the staff API.
#include "api/auth_support.h"

#include <string>

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

} // namespace testing_support

#include "api/companion_support.h"

#include "http/paging.h"

#include <Poco/String.h>

#include <stdexcept>

namespace testing_support {

const StaffAdmin& companionAdmin() {
    static StaffAdmin admin = createStaffAdmin(newClientIp());
    return admin;
}

Headers staffHeaders() { return companionAdmin().session.headers(); }

WorkerSession newWorker(const std::string& prefix) {
    WorkerSession w;
    w.account = createUser(prefix);
    w.session = signIn(w.account, newClientIp());
    auto me = getJson("/api/v1/wirewrite/me", w.headers());
    if (me.status != 200) throw std::runtime_error("GET /api/v1/wirewrite/me: " + std::to_string(me.status) + " " + me.body);
    w.workerId = me.json()["id"].get<std::string>();
    return w;
}

nlohmann::json createPromo(const nlohmann::json& body) {
    auto res = postJson("/api/v1/admin/wirewrite/promo-codes", body, staffHeaders());
    if (res.status != 201) throw std::runtime_error("create promo code: " + std::to_string(res.status) + " " + res.body);
    return res.json();
}

std::string newCode(const std::string& prefix) {
    return Poco::toUpper(prefix + "-" + storefront::db::newId().substr(0, 8));
}

std::vector<std::string> searchCertificatesLike(const std::string& term, const std::string& status) {
    const auto p = storefront::db::likePattern(term);
    std::vector<std::string> params{p, p, p, p};
    if (!status.empty()) params.push_back(status);
    return textColumn(
        "SELECT CAST(c.id AS TEXT) FROM certificates c JOIN worker_profiles w ON w.id = c.worker_id "
        "WHERE (LOWER(c.certificate_number) LIKE ? ESCAPE '\\' OR LOWER(c.site_location) LIKE ? ESCAPE '\\' "
        "OR LOWER(w.full_name) LIKE ? ESCAPE '\\' OR LOWER(w.email) LIKE ? ESCAPE '\\')" +
            std::string(status.empty() ? "" : " AND c.status = ?") + " ORDER BY c.created_at DESC, c.id DESC",
        params);
}

} // namespace testing_support

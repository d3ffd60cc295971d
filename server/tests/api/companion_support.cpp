#include "api/companion_support.h"

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

} // namespace testing_support

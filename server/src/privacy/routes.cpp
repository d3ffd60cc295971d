#include "privacy/routes.h"

#include "common/clock.h"
#include "common/nz_time.h"
#include "http/body.h"

#include <date/date.h>

#include <sstream>

namespace storefront::privacy {

namespace {

// Longer values cannot be a password (auth/password.h caps them at 256 bytes) or a 6-digit code.
constexpr std::size_t kMaxPasswordChars = 256;
constexpr std::size_t kMaxCodeChars = 16;

// The New Zealand date the file is named after: storefront-data-2026-11-27.json.
std::string fileName(const Clock& clock) {
    std::ostringstream out;
    out << "storefront-data-" << nz::dateOf(nz::instantOf(clock.now())) << ".json";
    return out.str();
}

std::optional<std::string> boundedText(http::Body& body, const char* name, std::size_t maxChars) {
    auto value = body.optText(name);
    if (value && value->size() > maxChars * 4) { // bytes: a UTF-8 character is at most four
        body.fail(name, "Must be at most " + std::to_string(maxChars) + " characters.");
        return std::nullopt;
    }
    return value;
}

} // namespace

void registerRoutes(http::Router& router, PrivacyService& service, const Clock& clock) {
    router.get("/api/v1/account/export", http::Access::SignedIn, [&service, &clock](http::Request& req, http::Response& res) {
        auto document = service.exportData(audit::actorOf(req), req.caller()->userId);
        res.json(200, document);
        res.set("Content-Disposition", "attachment; filename=\"" + fileName(clock) + "\"");
    });

    router.del("/api/v1/account", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
        CloseInput input;
        input.password = boundedText(body, "password", kMaxPasswordChars);
        input.code = boundedText(body, "code", kMaxCodeChars);
        body.check();
        service.close(audit::actorOf(req), req.caller()->userId, input,
                      auth::ClientInfo{req.clientAddress(), req.header("User-Agent")});
        res.noContent();
    });
}

} // namespace storefront::privacy

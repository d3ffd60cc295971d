#include "http/security_headers.h"

#include <Poco/String.h>

#include <algorithm>

namespace storefront::http {

const char* const kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

void addSecurityHeaders(Response& response, bool httpsPublicUrl) {
    response.headers.reserve(response.headers.size() + 6);
    static const std::string csp = kContentSecurityPolicy;
    response.set("Content-Security-Policy", csp);
    response.set("X-Content-Type-Options", "nosniff");
    response.set("X-Frame-Options", "DENY");
    // A handler may have asked for a stricter policy (the auth link redirect sends no referrer);
    // a second header would override it.
    const bool ownReferrerPolicy = std::any_of(response.headers.begin(), response.headers.end(),
                                               [](const auto& h) { return Poco::icompare(h.first, "Referrer-Policy") == 0; });
    if (!ownReferrerPolicy) response.set("Referrer-Policy", "strict-origin-when-cross-origin");
    response.set("Cross-Origin-Opener-Policy", "same-origin");
    if (httpsPublicUrl) response.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

} // namespace storefront::http
